import { detectEnvironment } from './environment';
import { describeDevice } from './device';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const WECHAT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN';
const MINI = `${WECHAT} miniProgram/wx1234`;
const ANDROID_APP =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A.240305.019; wv) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0 Mobile Safari/537.36 collectibles-app/2.3.1';

describe('detectEnvironment (spec §1)', () => {
  it('tells the mini-program web view, the messaging-app browser, our app and a browser apart', () => {
    expect(detectEnvironment(MINI)).toBe('wxapp');
    expect(detectEnvironment(WECHAT, 'miniprogram')).toBe('wxapp');
    expect(detectEnvironment(WECHAT)).toBe('wxh5');
    expect(detectEnvironment(ANDROID_APP)).toBe('app');
    expect(detectEnvironment(IPHONE)).toBe('browser');
  });
  it('does not mistake AppleWebKit/ for an app token', () => {
    expect(detectEnvironment('Mozilla/5.0 AppleWebKit/605.1.15 Safari/604.1')).toBe('browser');
  });
});

describe('describeDevice', () => {
  it('reads iOS, Android, macOS and Windows user agents', () => {
    expect(describeDevice(IPHONE)).toEqual({ os: 'iOS', osVersion: '17.4', model: 'iPhone', manufacturer: 'Apple' });
    expect(describeDevice(ANDROID_APP)).toMatchObject({ os: 'Android', osVersion: '14', model: 'Pixel 8' });
    expect(describeDevice('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)')).toMatchObject({ os: 'macOS', osVersion: '10.15.7' });
    expect(describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toMatchObject({ os: 'Windows', osVersion: '10.0' });
    expect(describeDevice('curl/8')).toEqual({ os: '', osVersion: '', model: '', manufacturer: '' });
  });
});
