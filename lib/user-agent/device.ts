/**
 * Device facts from a user agent (spec §3's tracking fields). Apart from ./environment.ts so that what every page's
 * shell loads to tell where it runs does not carry these patterns: only the page-view tracker and the server use them
 * (issue 34, first-load JavaScript). Pure.
 */
export type DeviceInfo = { os: string; osVersion: string; model: string; manufacturer: string };

/** Device facts a user agent honestly tells; unknown parts stay empty. */
export function describeDevice(userAgent: string): DeviceInfo {
  const ios = /(iPhone|iPad|iPod).*?OS (\d+[_.]\d+(?:[_.]\d+)?)/.exec(userAgent);
  if (ios) return { os: 'iOS', osVersion: ios[2]!.replace(/_/g, '.'), model: ios[1]!, manufacturer: 'Apple' };
  const android = /Android (\d+(?:\.\d+)*)(?:; ([^;)]+?))?(?: Build|\))/.exec(userAgent);
  if (android) {
    const model = (android[2] ?? '').trim();
    return { os: 'Android', osVersion: android[1]!, model, manufacturer: model.split(/\s+/)[0] ?? '' };
  }
  const mac = /Mac OS X (\d+[_.]\d+(?:[_.]\d+)?)/.exec(userAgent);
  if (mac) return { os: 'macOS', osVersion: mac[1]!.replace(/_/g, '.'), model: 'Mac', manufacturer: 'Apple' };
  const windows = /Windows NT (\d+\.\d+)/.exec(userAgent);
  if (windows) return { os: 'Windows', osVersion: windows[1]!, model: '', manufacturer: '' };
  if (/Linux/.test(userAgent)) return { os: 'Linux', osVersion: '', model: '', manufacturer: '' };
  return { os: '', osVersion: '', model: '', manufacturer: '' };
}
