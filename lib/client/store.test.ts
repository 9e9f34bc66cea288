/** @jest-environment jsdom */
import { createStorefrontStore, maskPhone, PERSIST_KEY } from './store';

beforeEach(() => window.localStorage.clear());

describe('client state (spec §3)', () => {
  it('masks the phone: first 3 digits, ****, last 4', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
  });

  it('persists only the user module under art-front, never the token', () => {
    const store = createStorefrontStore(window.localStorage);
    store.getState().setUser({ phone: '13812345678', token: 'secret-token', userInfo: { nickname: 'Mira' } });
    store.getState().setCaptcha('ticket-1');
    store.getState().setChainCode('CODE-9');
    const saved = JSON.parse(window.localStorage.getItem(PERSIST_KEY) ?? '{}');
    expect(saved.state).toEqual({ user: { phone: '138****5678', userInfo: { nickname: 'Mira' } } });
    expect(JSON.stringify(saved)).not.toContain('secret-token');
    expect(JSON.stringify(saved)).not.toContain('13812345678');
    expect(store.getState().user.token).toBe('secret-token');
  });

  it('restores the user module on the next page load, without a token', () => {
    createStorefrontStore(window.localStorage).getState().setUser({ phone: '13812345678', token: 't' });
    const next = createStorefrontStore(window.localStorage);
    expect(next.getState().user).toEqual({ token: null, phone: '138****5678', userInfo: null });
    expect(next.getState().goods.showAmount).toBe(true);
  });

  it('ignores a tampered saved value', () => {
    window.localStorage.setItem(
      PERSIST_KEY,
      JSON.stringify({ state: { user: { phone: 42, userInfo: 'x', token: 'stolen' } }, version: 0 }),
    );
    expect(createStorefrontStore(window.localStorage).getState().user).toEqual({ token: null, phone: null, userInfo: null });
  });

  it('clears the user on logout', () => {
    const store = createStorefrontStore(window.localStorage);
    store.getState().setUser({ phone: '13812345678' });
    store.getState().clearUser();
    expect(store.getState().user.phone).toBeNull();
    expect(JSON.parse(window.localStorage.getItem(PERSIST_KEY) ?? '{}').state.user.phone).toBeNull();
  });
});
