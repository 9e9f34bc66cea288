import 'server-only';
import { postToCloud } from '../security/cloud-post';
import { AppError } from '../procedure/errors';
import { msg, type ApiMessage } from '../procedure/messages';
import { maskPhone } from './mask';
import type { SmsMessage } from './sms';

/**
 * What the real carriers (sms-aliyun.ts, sms-tencent.ts) share: the sign name and template a message goes out with, one
 * HTTP call with a time limit, and the buyer's answer for each kind of refusal. A carrier's refusal is never a 500: the
 * buyer reads what happened, and the server log says what the operator has to fix, naming the setting.
 */

/** How long a carrier may take to answer before the buyer is told to try again (the SMS APIs answer in well under 1 s). */
export const SMS_CARRIER_TIMEOUT_MS = 5000;

/** What went wrong at the carrier, in the store's words. */
export type CarrierRefusal =
  /** The carrier's own limit for this phone number (minute, hour or day). */
  | 'phoneLimit'
  /** The number is not one the carrier can text (bad format, opted out, not mainland). */
  | 'phoneRefused'
  /** The template is missing, not approved, or does not take our parameters. */
  | 'template'
  /** The sign name is missing or not approved. */
  | 'signName'
  /** The account is out of money or of its SMS package. */
  | 'balance'
  /** The account reached a daily or monthly total set in the carrier's console. */
  | 'accountLimit'
  /** Keys refused, signature refused, permission denied, application unknown. */
  | 'credentials';

export type CarrierSettings = {
  /** `aliyun` or `tencent`, for log lines. */
  provider: string;
  /** The deployment's sign name and template (SMS_SIGN_NAME, SMS_TEMPLATE_ID). */
  signName: string;
  templateId: string;
  /**
   * The closing code's template (issue 36: SMS_ALIYUN_CLOSE_TEMPLATE, SMS_TENCENT_CLOSE_TEMPLATE_ID), taking the same
   * parameters as the login's. Unset, a closing code goes out under the login template, with a warning (lib/env.ts,
   * SMS_CLOSE_TEMPLATE_VARIABLE).
   */
  closeTemplateId?: string;
  /** The API origin (e.g. https://dysmsapi.aliyuncs.com); a local fake in tests. */
  endpoint: string;
  timeoutMs?: number;
  /** The environment variables holding the credentials, named in log lines when the carrier refuses them. */
  credentialVariables: string;
};

/**
 * One text through an approved template at a carrier: a login code (./sms.ts) or a notice from the outbox (issue 32, a
 * refund's text: ./sms-outbox.ts).
 */
export type TemplateText = {
  channelId: number;
  phone: string;
  signName: string;
  templateId: string;
  /** The template's parameters in its order, by name: Alibaba Cloud names them, Tencent Cloud numbers them in this order. */
  params: [name: string, value: string][];
  /** The settings that hold this template, named in the log line when the carrier refuses it. */
  templateSetting: string;
};

/** A login code as a template text: (code, minutes) with the channel's own sign name and template when it has them. */
export function codeText(message: SmsMessage, settings: CarrierSettings): TemplateText {
  const sender = senderOf(message, settings);
  // A closing code under the deployment's closing template (a channel has its own login template only), with the
  // channel's sign name.
  const closing = message.purpose === 'close' && settings.closeTemplateId !== undefined;
  if (message.purpose === 'close' && !closing)
    console.warn(
      `[sms ${settings.provider}] a closing code went out under the login template: set ${settings.provider === 'aliyun' ? 'SMS_ALIYUN_CLOSE_TEMPLATE' : 'SMS_TENCENT_CLOSE_TEMPLATE_ID'} (docs/deploy.md)`,
    );
  return {
    channelId: message.channelId,
    phone: message.phone,
    signName: sender.signName,
    templateId: closing ? settings.closeTemplateId! : sender.templateId,
    params: [
      ['code', message.code],
      ['minutes', String(message.ttlMinutes)],
    ],
    templateSetting: closing
      ? settings.provider === 'aliyun'
        ? 'SMS_ALIYUN_CLOSE_TEMPLATE'
        : 'SMS_TENCENT_CLOSE_TEMPLATE_ID'
      : "SMS_TEMPLATE_ID or the channel's sms_template_id",
  };
}

/**
 * A carrier's refusal as thrown: an AppError the buyer can read (a login code's caller shows it), carrying what the
 * outbox records of it for the operator (the carrier's code and what it means), which never reaches the buyer.
 */
export class CarrierRefusedError extends AppError {
  constructor(
    code: ConstructorParameters<typeof AppError>[0],
    message: ApiMessage,
    /** The carrier's code and what it means (`isv.AMOUNT_NOT_ENOUGH: balance`), for the outbox row and the log. */
    readonly reason: string,
  ) {
    super(code, message);
  }
}

/** The sign name and template of one message: the channel's own when it has them, else the deployment's. */
export function senderOf(message: SmsMessage, settings: CarrierSettings): { signName: string; templateId: string } {
  return {
    signName: message.sender?.signName || settings.signName,
    templateId: message.sender?.templateId || settings.templateId,
  };
}

const PHONE_LIMIT = msg('smsCarrierPhoneLimit');
const PHONE_REFUSED = msg('smsCarrierPhoneRefused');
const CANNOT_SEND = msg('smsCarrierCannotSend');
const NO_ANSWER = msg('smsCarrierNoAnswer');

/**
 * The buyer's answer to a carrier's refusal, after a server log line that names the carrier's code and what to fix.
 * Per-phone refusals are the buyer's business (429, 400); the others are the store's (503), and only the log says why.
 */
export function refusal(
  kind: CarrierRefusal | null,
  detail: { settings: CarrierSettings; text: TemplateText; vendorCode: string; vendorMessage: string },
): AppError {
  const { settings, text } = detail;
  const where = `[sms ${settings.provider}] channel ${text.channelId}, ${maskPhone(text.phone)}: ${detail.vendorCode} (${detail.vendorMessage})`;
  const refused = (code: ConstructorParameters<typeof AppError>[0], message: ApiMessage) =>
    new CarrierRefusedError(code, message, `${detail.vendorCode}: ${kind ?? 'unknown'}`);
  switch (kind) {
    case 'phoneLimit':
      console.warn(`${where}: the carrier's limit for this number`);
      return refused(429, PHONE_LIMIT);
    case 'phoneRefused':
      console.warn(`${where}: the carrier refuses this number`);
      return refused(400, PHONE_REFUSED);
    case 'template':
      console.error(
        `${where}: template ${text.templateId} is missing, not approved or does not take (${text.params.map(([name]) => name).join(', ')}); fix ${text.templateSetting}`,
      );
      return refused(503, CANNOT_SEND);
    case 'signName':
      console.error(`${where}: sign name "${text.signName}" is missing or not approved; fix SMS_SIGN_NAME or the channel's sms_sign_name`);
      return refused(503, CANNOT_SEND);
    case 'balance':
      console.error(`${where}: the ${settings.provider} SMS account has no balance or package left; top it up`);
      return refused(503, CANNOT_SEND);
    case 'accountLimit':
      console.error(`${where}: the ${settings.provider} SMS account reached a sending total set in its console; raise it`);
      return refused(503, CANNOT_SEND);
    case 'credentials':
      console.error(`${where}: the carrier refuses our credentials; check ${settings.credentialVariables}`);
      return refused(503, CANNOT_SEND);
    default:
      console.error(`${where}: not a code the store knows; no text was sent`);
      return refused(503, CANNOT_SEND);
  }
}

/**
 * One POST to the carrier, given up after the time limit. A network failure or a timeout is a 503 for the buyer
 * ("did not answer") and a log line; the caller gets the HTTP status and the parsed JSON body otherwise.
 */
export async function postToCarrier(
  settings: CarrierSettings,
  request: { url: string; headers: Record<string, string>; body: string },
): Promise<{ status: number; json: unknown }> {
  const timeoutMs = settings.timeoutMs ?? SMS_CARRIER_TIMEOUT_MS;
  const answer = await postToCloud(request, timeoutMs);
  const where = `[sms ${settings.provider}] ${settings.endpoint}`;
  switch (answer.kind) {
    case 'json':
      return { status: answer.status, json: answer.json };
    case 'timeout':
      console.error(`${where}: no answer within ${timeoutMs} ms; a text may still arrive, with a code that no longer works`);
      break;
    case 'unreachable':
      console.error(`${where}: ${describe(answer.error)}`);
      break;
    case 'notJson':
      console.error(`${where}: HTTP ${answer.status} with a body that is not JSON; no text was sent`);
      break;
  }
  throw new AppError(503, NO_ANSWER);
}

function describe(error: unknown): string {
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: { message?: unknown; code?: unknown } };
  if (typeof message !== 'string') return String(error);
  const why = cause?.code ?? cause?.message;
  return why ? `${message} (${String(why)})` : message;
}
