import 'server-only';
import { randomUUID } from 'node:crypto';
import { percentEncode, signAliyunRequest } from '../security/cloud-signature';
import { codeText, postToCarrier, refusal, type CarrierRefusal, type CarrierSettings, type TemplateText } from './sms-carrier';
import type { SmsProvider } from './sms';

/**
 * Alibaba Cloud SMS (Dysmsapi 2017-05-25, SendSms), signed with ACS3-HMAC-SHA256 (Alibaba Cloud's "V3 request
 * structure and signature"). Written by hand on node:crypto and fetch rather than with @alicloud/dysmsapi20170525:
 * docs/decisions.md, "SMS carriers without their SDKs".
 *
 * The template takes two parameters, `code` and `minutes`: e.g. "Your code is ${code}, valid ${minutes} minutes".
 */
export type AliyunSmsSettings = Omit<CarrierSettings, 'provider' | 'credentialVariables'> & {
  accessKeyId: string;
  accessKeySecret: string;
};

/** Dysmsapi's codes (its "API error codes" page) by what they mean for the store; `OK` is success. */
function aliyunRefusal(code: string): CarrierRefusal | null {
  if (code === 'isv.BUSINESS_LIMIT_CONTROL') return 'phoneLimit';
  if (['isv.MOBILE_NUMBER_ILLEGAL', 'isv.DOMESTIC_NUMBER_NOT_SUPPORTED', 'isv.MOBILE_COUNT_OVER_LIMIT'].includes(code))
    return 'phoneRefused';
  if (
    [
      'isv.SMS_TEMPLATE_ILLEGAL',
      'isv.TEMPLATE_MISSING_PARAMETERS',
      'isv.TEMPLATE_PARAMS_ILLEGAL',
      'isv.SMS_SIGNATURE_SCENE_ILLEGAL',
      'isv.INVALID_JSON_PARAM',
    ].includes(code)
  )
    return 'template';
  if (['isv.SMS_SIGNATURE_ILLEGAL', 'isv.SMS_SIGN_ILLEGAL', 'isv.SIGN_STATE_ILLEGAL'].includes(code)) return 'signName';
  if (['isv.AMOUNT_NOT_ENOUGH', 'isv.OUT_OF_SERVICE'].includes(code)) return 'balance';
  if (['isv.DAY_LIMIT_CONTROL', 'isv.MONTH_LIMIT_CONTROL'].includes(code)) return 'accountLimit';
  if (
    code.startsWith('InvalidAccessKeyId') ||
    code.startsWith('SignatureDoesNotMatch') ||
    code.startsWith('IncompleteSignature') ||
    code.startsWith('InvalidTimeStamp') ||
    code.startsWith('Forbidden') ||
    [
      'isp.RAM_PERMISSION_DENY',
      'isv.ACCOUNT_NOT_EXISTS',
      'isv.ACCOUNT_ABNORMAL',
      'isv.PRODUCT_UN_SUBSCRIPT',
      'isv.PRODUCT_UNSUBSCRIBE',
      'isv.DENY_IP_RANGE',
    ].includes(code)
  )
    return 'credentials';
  return null;
}

export function aliyunSmsProvider(settings: AliyunSmsSettings): SmsProvider {
  const carrier: CarrierSettings = {
    ...settings,
    provider: 'aliyun',
    credentialVariables: 'ALIYUN_SMS_ACCESS_KEY_ID and ALIYUN_SMS_ACCESS_KEY_SECRET',
  };
  const origin = new URL(settings.endpoint);
  const sendTemplate = async (text: TemplateText): Promise<void> => {
    const body = Object.entries({
      PhoneNumbers: text.phone,
      SignName: text.signName,
      TemplateCode: text.templateId,
      TemplateParam: JSON.stringify(Object.fromEntries(text.params)),
    })
      .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
      .join('&');
    const headers = signAliyunRequest({
      host: origin.host,
      action: 'SendSms',
      version: '2017-05-25',
      body,
      accessKeyId: settings.accessKeyId,
      accessKeySecret: settings.accessKeySecret,
      now: new Date(),
      nonce: randomUUID(),
    });
    // fetch sets Host itself, from the URL: the same value as signed.
    const sent = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'host'));
    const answer = await postToCarrier(carrier, { url: `${origin.origin}/`, headers: sent, body });
    const json = (answer.json ?? {}) as { Code?: unknown; Message?: unknown };
    const code = typeof json.Code === 'string' ? json.Code : `HTTP ${answer.status}`;
    if (answer.status === 200 && code === 'OK') return;
    throw refusal(aliyunRefusal(code), {
      settings: carrier,
      text,
      vendorCode: code,
      vendorMessage: typeof json.Message === 'string' ? json.Message : '',
    });
  };
  return {
    name: 'aliyun',
    showsCodes: false,
    async send(_db, message) {
      await sendTemplate(codeText(message, carrier));
    },
    sendTemplate,
  };
}
