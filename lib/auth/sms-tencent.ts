import 'server-only';
import { TC3_CONTENT_TYPE, tencentSigner } from '../security/cloud-signature';
import { codeText, postToCarrier, refusal, type CarrierRefusal, type CarrierSettings, type TemplateText } from './sms-carrier';
import type { SmsProvider } from './sms';

/**
 * Tencent Cloud SMS (sms 2021-01-11, SendSms), signed with TC3-HMAC-SHA256 (Tencent Cloud API "Signature v3").
 * Written by hand on node:crypto and fetch rather than with tencentcloud-sdk-nodejs-sms: docs/decisions.md,
 * "SMS carriers without their SDKs".
 *
 * The template takes two positional parameters: {1} the code, {2} the minutes it is valid.
 */
export type TencentSmsSettings = Omit<CarrierSettings, 'provider' | 'credentialVariables'> & {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  region: string;
};

const CONTENT_TYPE = TC3_CONTENT_TYPE;

/** The Authorization header of one SMS call (TC3-HMAC-SHA256 for service `sms`: lib/security/cloud-signature.ts). */
export const signTencentRequest = tencentSigner('sms');

/** Tencent Cloud SMS codes (its "Error Codes" page) by what they mean for the store; `Ok` is success. */
function tencentRefusal(code: string): CarrierRefusal | null {
  if (code.startsWith('LimitExceeded.PhoneNumber') || code === 'LimitExceeded.DeliveryFrequencyLimit') return 'phoneLimit';
  if (
    [
      'InvalidParameterValue.IncorrectPhoneNumber',
      'FailedOperation.PhoneNumberInBlacklist',
      'FailedOperation.PhoneNumberParseFail',
      'UnsupportedOperation.UnsupportedRegion',
    ].includes(code)
  )
    return 'phoneRefused';
  if (
    code === 'FailedOperation.TemplateIncorrectOrUnapproved' ||
    code === 'FailedOperation.MissingTemplateToModify' ||
    code === 'FailedOperation.TemplateIdNotExist' ||
    code.startsWith('InvalidParameterValue.TemplateParameter') ||
    code === 'InvalidParameterValue.ProhibitedUseUrlInTemplateParameter'
  )
    return 'template';
  if (code === 'FailedOperation.SignatureIncorrectOrUnapproved' || code.startsWith('InvalidParameterValue.SignName')) return 'signName';
  if (code === 'FailedOperation.InsufficientBalanceInSmsPackage' || code === 'UnauthorizedOperation.ServiceSuspendDueToArrears')
    return 'balance';
  if (code.startsWith('LimitExceeded.')) return 'accountLimit';
  if (code.startsWith('AuthFailure') || code.startsWith('UnauthorizedOperation') || code === 'InvalidParameterValue.SdkAppIdNotExist')
    return 'credentials';
  return null;
}

type TencentAnswer = {
  Response?: {
    Error?: { Code?: unknown; Message?: unknown };
    SendStatusSet?: { Code?: unknown; Message?: unknown }[];
  };
};

export function tencentSmsProvider(settings: TencentSmsSettings): SmsProvider {
  const carrier: CarrierSettings = {
    ...settings,
    provider: 'tencent',
    credentialVariables: 'TENCENT_SMS_SECRET_ID, TENCENT_SMS_SECRET_KEY and TENCENT_SMS_SDK_APP_ID',
  };
  const origin = new URL(settings.endpoint);
  const sendTemplate = async (text: TemplateText): Promise<void> => {
    const body = JSON.stringify({
      PhoneNumberSet: [`+86${text.phone}`],
      SmsSdkAppId: settings.sdkAppId,
      SignName: text.signName,
      TemplateId: text.templateId,
      TemplateParamSet: text.params.map(([, value]) => value),
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const authorization = signTencentRequest({
      host: origin.host,
      action: 'SendSms',
      body,
      secretId: settings.secretId,
      secretKey: settings.secretKey,
      timestamp,
    });
    const answer = await postToCarrier(carrier, {
      url: `${origin.origin}/`,
      headers: {
        authorization,
        'content-type': CONTENT_TYPE,
        'x-tc-action': 'SendSms',
        'x-tc-version': '2021-01-11',
        'x-tc-timestamp': String(timestamp),
        'x-tc-region': settings.region,
      },
      body,
    });
    // A refused call answers Response.Error; an accepted one answers a status per number, which may still be a refusal.
    const response = (answer.json as TencentAnswer | null)?.Response;
    const failure = response?.Error ?? response?.SendStatusSet?.[0] ?? { Code: `HTTP ${answer.status}`, Message: 'no send status' };
    const code = typeof failure.Code === 'string' ? failure.Code : `HTTP ${answer.status}`;
    if (answer.status === 200 && !response?.Error && code === 'Ok') return;
    throw refusal(tencentRefusal(code), {
      settings: carrier,
      text,
      vendorCode: code,
      vendorMessage: typeof failure.Message === 'string' ? failure.Message : '',
    });
  };
  return {
    name: 'tencent',
    showsCodes: false,
    async send(_db, message) {
      await sendTemplate(codeText(message, carrier));
    },
    sendTemplate,
  };
}
