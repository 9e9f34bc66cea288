import { authProcedures } from '../auth/procedures';
import { channelProcedures } from '../channel/procedures';
import { saleProcedures } from '../sale/procedures';
import { trackingProcedures } from '../tracking/procedures';
import { orderProcedures } from '../order/procedures';
import { paymentProcedures } from '../payment/procedures';
import { collectionProcedures } from '../collection/procedures';
import { giftProcedures } from '../gift/procedures';
import { exchangeProcedures } from '../exchange/procedures';
import { chainProcedures } from '../chain/procedures';
import { operatorProcedures } from '../operator/procedures';
import { domainProcedures } from '../operator/domain-procedures';
import { skinProcedures } from '../operator/skin-procedures';
import { channelSettingsProcedures } from '../operator/channel-procedures';
import { teamProcedures } from '../operator/team-procedures';
import { auditProcedures } from '../operator/audit-procedures';
import { passkeyProcedures } from '../operator/passkey-procedures';
import { buyerProcedures } from '../operator/buyer-procedures';
import { refundProcedures } from '../operator/refund-procedures';
import { reportProcedures } from '../operator/report-procedures';
import { catalogueProcedures } from '../operator/catalogue-procedures';
import { campaignProcedures } from '../operator/campaign-procedures';
import { noticeStoreProcedures } from '../notice/procedures';
import { inboxProcedures } from '../notice/inbox-procedures';
import { noticeProcedures } from '../operator/notice-procedures';
import { alertProcedures } from '../operator/alert-procedures';
import { identityProcedures } from '../identity/procedures';
import { mineProcedures } from '../buyer/procedures';
import { lotteryProcedures } from '../sale/lottery-procedures';
import { lotteryConsoleProcedures } from '../operator/lottery-procedures';
import { queueProcedures } from '../sale/queue-procedures';
import { queueConsoleProcedures } from '../operator/queue-procedures';
import { priorityProcedures } from '../sale/priority-procedures';
import { priorityConsoleProcedures } from '../operator/priority-procedures';
import { transferProcedures } from '../transfer/procedures';
import { profileProcedures } from '../buyer/profile-procedures';
import { wechatProcedures } from '../wechat/procedures';

/**
 * The market API's procedures by path (spec §7, DESIGN §5), composed from each domain's own list. Payloads are
 * documented in docs/api.md; the OpenAPI document and the browser's typed client are derived from this object.
 */
export const registry = {
  ...channelProcedures,
  ...saleProcedures,
  ...trackingProcedures,
  ...authProcedures,
  ...orderProcedures,
  ...paymentProcedures,
  ...collectionProcedures,
  ...giftProcedures,
  ...exchangeProcedures,
  ...chainProcedures,
  ...operatorProcedures,
  ...domainProcedures,
  ...skinProcedures,
  ...channelSettingsProcedures,
  ...teamProcedures,
  ...auditProcedures,
  ...passkeyProcedures,
  ...buyerProcedures,
  ...refundProcedures,
  ...reportProcedures,
  ...catalogueProcedures,
  ...campaignProcedures,
  ...noticeStoreProcedures,
  ...inboxProcedures,
  ...noticeProcedures,
  ...alertProcedures,
  ...identityProcedures,
  ...mineProcedures,
  ...lotteryProcedures,
  ...lotteryConsoleProcedures,
  ...queueProcedures,
  ...queueConsoleProcedures,
  ...priorityProcedures,
  ...priorityConsoleProcedures,
  ...transferProcedures,
  ...profileProcedures,
  // issue 36: the WeChat share card's wx.config.
  ...wechatProcedures,
} as const;

export type Registry = typeof registry;
export type ApiPath = keyof Registry;
