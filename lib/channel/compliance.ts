/**
 * The compliance footer (issue 31, "Channels"): mainland regulation asks a site to show its ICP filing number linking
 * to the MIIT filing site, its public security filing number linking to the MPS filing site, and, for a blockchain
 * information service, its filing number with the Cyberspace Administration. The shapes below are the numbers' printed
 * forms; a number outside them is refused with its field rather than shown wrong on every page. Pure, no imports.
 */

/**
 * The one-character abbreviations of the provinces, municipalities and regions a filing number starts with (both forms
 * where a province has two: 川/蜀, 贵/黔, 云/滇, 陕/秦, 甘/陇).
 */
const PROVINCE = '[京津冀晋蒙辽吉黑沪苏浙皖闽赣鲁豫鄂湘粤桂琼渝川蜀贵黔云滇藏陕秦甘陇青宁新]';

/** 京ICP备12345678号-1, 沪ICP证123456号 (an ICP licence): a filing of 6 to 10 digits, its site number optional. */
export const ICP_FILING = new RegExp(`^${PROVINCE}ICP[备证]\\d{6,10}号(-\\d{1,3})?$`);
/** 京公网安备11010502030143号: the public security filing is 14 digits. */
export const PUBLIC_SECURITY_FILING = new RegExp(`^${PROVINCE}公网安备\\d{14}号$`);
/** 京网信备11010519512345678901号: the blockchain information service filing (15 to 20 digits as issued). */
export const BLOCKCHAIN_FILING = new RegExp(`^${PROVINCE}网信备\\d{15,20}号$`);

/** Where the ICP number links: the MIIT's filing search (the number is typed there; the site takes no query). */
export const MIIT_FILING_URL = 'https://beian.miit.gov.cn/';

/**
 * Where the public security number links: the MPS filing search for its digits (checked 2026-11: the site's current
 * address; the old www.beian.gov.cn/portal/registerSystemInfo?recordcode= links redirect to its home page).
 */
export function publicSecurityFilingUrl(filing: string): string {
  return `https://beian.mps.gov.cn/#/query/webSearch?code=${filing.replace(/\D/g, '')}`;
}

/** The filing numbers as a channel row keeps them (null: not filed, nothing shown). */
export type ComplianceFilings = {
  icpFiling: string | null;
  publicSecurityFiling: string | null;
  blockchainFiling: string | null;
};

/** One line of the footer: its words, and where it links (null: plain text). */
export type ComplianceLine = { kind: 'icp' | 'publicSecurity' | 'blockchain'; text: string; href: string | null };

/** The footer's lines for a channel, in the order mainland sites print them; empty when none is set. */
export function complianceLines(filings: ComplianceFilings): ComplianceLine[] {
  const lines: ComplianceLine[] = [];
  if (filings.icpFiling) lines.push({ kind: 'icp', text: filings.icpFiling, href: MIIT_FILING_URL });
  if (filings.publicSecurityFiling)
    lines.push({ kind: 'publicSecurity', text: filings.publicSecurityFiling, href: publicSecurityFilingUrl(filings.publicSecurityFiling) });
  if (filings.blockchainFiling) lines.push({ kind: 'blockchain', text: filings.blockchainFiling, href: null });
  return lines;
}
