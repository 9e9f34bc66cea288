/** @jest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithMessages } from '@/test/render-with-messages';
import { residentIdCheckDigit } from '@/lib/format/resident-id';
import { BusinessError } from '@/lib/client/api-client';
import { IdentityForm, VERIFY_PATH } from './identity-form';

// The verification form (issue 33): the ID number's shape and check digit are checked in the browser before any call,
// and each refusal of the server lands under the field it is about or as the form's error, in words.

const post = jest.fn();
const refresh = jest.fn();
const dismiss = jest.fn();
jest.mock('@/components/shell/api-provider', () => ({ useApi: () => ({ post }) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ refresh, push: jest.fn(), replace: jest.fn() }) }));
jest.mock('@/components/ui/toast', () => ({ showToast: jest.fn(), dismissToasts: () => dismiss() }));

afterEach(() => {
  post.mockReset();
  refresh.mockReset();
  dismiss.mockReset();
});

const FIRST17 = '11010119900307123';
const VALID = FIRST17 + residentIdCheckDigit(FIRST17);
const WRONG_DIGIT = FIRST17 + (residentIdCheckDigit(FIRST17) === '0' ? '1' : '0');
const consent = {
  version: 'a1b2c3d4e5f6',
  title: 'Consent to verify your real name',
  paragraphs: ['We check your name and number once.', 'We keep them sealed.'],
};

function fill({
  name = '张三',
  id = VALID,
  agree = true,
  verify = 'Verify',
}: { name?: string; id?: string; agree?: boolean; verify?: string } = {}) {
  fireEvent.change(screen.getByTestId('identity-name'), { target: { value: name } });
  fireEvent.change(screen.getByTestId('identity-id-number'), { target: { value: id } });
  if (agree) fireEvent.click(screen.getByTestId('identity-consent'));
  fireEvent.click(screen.getByRole('button', { name: verify }));
}

const render = (locale: 'en' | 'zh-CN' = 'en') =>
  renderWithMessages(<IdentityForm consent={consent} back="/goods/detail/7" timeZone="Asia/Shanghai" />, { locale });

describe('the browser check, before any call', () => {
  it('refuses a wrong check digit under the ID number field, in words, and sends nothing', () => {
    render();
    fill({ id: WRONG_DIGIT });
    expect(screen.getByTestId('identity-id-number-error')).toHaveTextContent('The last character does not match the others');
    expect(screen.getByTestId('identity-id-number')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('identity-name-error')).not.toBeInTheDocument();
    expect(post).not.toHaveBeenCalled();
  });

  it('says so in Chinese on a Chinese channel, and names a short number as too short', () => {
    render('zh-CN');
    fill({ id: '1101011990', verify: '认证' });
    expect(screen.getByTestId('identity-id-number-error')).toHaveTextContent('身份证号码应为 18 位');
    expect(post).not.toHaveBeenCalled();
  });

  it('asks for the name and the consent where they are missing', () => {
    render();
    fill({ name: '  ', agree: false });
    expect(screen.getByTestId('identity-name-error')).toHaveTextContent('Enter your legal name');
    expect(screen.getByTestId('identity-consent-error')).toHaveTextContent('agree to the consent');
    expect(post).not.toHaveBeenCalled();
  });

  it('takes the number as typed in groups with spaces and a lower-case x, and sends it normalised', async () => {
    const first17 = '11010119800101002';
    const digit = residentIdCheckDigit(first17);
    post.mockResolvedValue({
      verified: true,
      maskedName: '张*',
      maskedIdNumber: '1101**********002X',
      verifiedAt: '2026-11-27T03:00:00Z',
    });
    render();
    fill({ id: `110101 19800101 002${digit.toLowerCase()}` });
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post).toHaveBeenCalledWith(VERIFY_PATH, { name: '张三', idNumber: first17 + digit, consentVersion: consent.version });
  });
});

describe('once verified', () => {
  it('shows only the masked forms and the way back', async () => {
    post.mockResolvedValue({
      verified: true,
      maskedName: '张*',
      maskedIdNumber: '1101**********1234',
      verifiedAt: '2026-11-27T03:00:00Z',
    });
    render();
    fill();
    expect(await screen.findByTestId('identity-masked')).toHaveTextContent('张* · 1101**********1234');
    expect(screen.getByText('verified on 2026-11-27')).toBeInTheDocument();
    expect(screen.getByTestId('identity-back')).toHaveAttribute('href', '/goods/detail/7');
    expect(screen.queryByTestId('identity-form')).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(VALID);
  });
});

describe("the server's refusals, where they belong", () => {
  it.each<[string, BusinessError, string, string]>([
    [
      'a field the server names (400 data.field)',
      new BusinessError('The name has characters a legal name does not.', 400, { field: 'name' }),
      'identity-name-error',
      'The name has characters',
    ],
    [
      "a schema's refusal (400 field: why)",
      new BusinessError('idNumber: the check digit does not match', 400),
      'identity-id-number-error',
      'the check digit does not match',
    ],
    [
      'a changed consent (400 consentVersion)',
      new BusinessError('The consent text changed: please read it again.', 400, { field: 'consentVersion' }),
      'identity-consent-error',
      'The consent text changed',
    ],
    [
      'an ID number verified on another account (409)',
      new BusinessError('in use', 409, { reason: 'identityInUse' }),
      'identity-id-number-error',
      'already verified on another account',
    ],
    [
      'a number the vendor has no record of (409, naming idNumber)',
      new BusinessError('The identity service has no record of this ID number.', 409, { reason: 'identityMismatch', field: 'idNumber' }),
      'identity-id-number-error',
      'no record of this ID number',
    ],
    ['a mismatch (409)', new BusinessError('mismatch', 409, { reason: 'identityMismatch' }), 'identity-form-error', 'do not match'],
    [
      "the vendor not answering (503), in the server's words",
      new BusinessError('The identity check did not answer. Please try again in a few minutes.', 503),
      'identity-form-error',
      'try again in a few minutes',
    ],
    ['the vendor not answering (503), with no words', new BusinessError('', 503), 'identity-form-error', 'try again later'],
    [
      'too many tries (429)',
      new BusinessError('Too many tries. Please try again in 10 minutes.', 429),
      'identity-form-error',
      'Too many tries',
    ],
  ])('%s', async (_what, error, testId, words) => {
    post.mockRejectedValue(error);
    render();
    fill();
    expect(await screen.findByTestId(testId)).toHaveTextContent(words);
    // Shown in place: the toast the API client raised goes.
    expect(dismiss).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Verify' })).not.toHaveAttribute('aria-busy');
  });

  it('never names the other account for an ID number in use', async () => {
    post.mockRejectedValue(new BusinessError('in use', 409, { reason: 'identityInUse' }));
    render();
    fill();
    expect(await screen.findByTestId('identity-id-number-error')).toHaveTextContent(
      'This ID number is already verified on another account.',
    );
  });

  it('reads the page again when the account was verified meanwhile', async () => {
    post.mockRejectedValue(new BusinessError('already', 409, { reason: 'alreadyVerified' }));
    render();
    fill();
    await waitFor(() => expect(refresh).toHaveBeenCalledTimes(1));
  });
});
