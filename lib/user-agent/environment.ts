/**
 * Where the storefront runs (spec §1): wxapp (messaging-app mini-program web view), wxh5 (messaging-app in-app
 * browser), app (our native app: its user agent carries an `app/<version>` token), or a plain browser. Pure.
 */
export type RunEnvironment = 'wxapp' | 'wxh5' | 'app' | 'browser';

export function detectEnvironment(userAgent: string, wxjsEnvironment?: string | null): RunEnvironment {
  const ua = userAgent.toLowerCase();
  if (wxjsEnvironment === 'miniprogram' || ua.includes('miniprogram')) return 'wxapp';
  if (ua.includes('micromessenger')) return 'wxh5';
  if (/(^|[^a-z0-9])app\/\d/.test(ua)) return 'app';
  return 'browser';
}

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
