'use client';

import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslations } from 'use-intl';
import { useApi } from '@/components/shell/api-provider';
import { LineIcon } from '@/components/ui/line-icon';
import { solvePow } from '@/lib/client/proof-of-work';
import type { Challenge } from '@/lib/auth/schema';

/** What the captcha API answers (lib/auth/captcha.ts). */
type TrackPoint = { x: number; y: number; t: number };

/** Keyboard steps, in picture pixels. */
const STEP = 2;
const BIG_STEP = 12;
/** Pointer moves closer than this (ms) to the last recorded one are not recorded (keeps the track small). */
const SAMPLE_MS = 12;

/**
 * The slider captcha (issue on accounts): drag the piece into the hole of its shape in a server-drawn picture; the
 * server keeps the answer and judges the drop and the drag. Works with touch, mouse and pen (pointer events), and with
 * the keyboard (arrows, Enter). Those who cannot drag switch to a question in words. A solved captcha hands a
 * single-use ticket to `onSolved`; the caller sends it in the behaviorVerify header.
 *
 * Every answer carries the solution of the challenge's proof of work (lib/auth/proof-of-work.ts). It is searched for as
 * soon as the challenge arrives, in short slices that leave the drag smooth, so by the time the person lets go it is
 * usually found; if not, the check waits for it.
 */
export function SliderCaptcha({ onSolved, onClose }: { onSolved: (ticket: string) => void; onClose: () => void }) {
  const t = useTranslations('captcha');
  const api = useApi();
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [loading, setLoading] = useState(true);
  const [checking, setChecking] = useState(false);
  const [failed, setFailed] = useState(false);
  /** Piece position in picture pixels. */
  const [x, setX] = useState(0);
  const [answer, setAnswer] = useState('');
  const [scale, setScale] = useState(1);
  const frame = useRef<HTMLDivElement>(null);
  const track = useRef<TrackPoint[]>([]);
  const start = useRef<{ pointerX: number; pointerY: number; at: number } | null>(null);
  const keyStart = useRef<number | null>(null);
  /** The search for the current challenge's proof of work, started when it arrives. */
  const pow = useRef<Promise<number | null> | null>(null);

  /** Which challenge to show; a new object asks the server for a new picture (or question). */
  const [request, setRequest] = useState<{ kind: 'slider' | 'text' }>({ kind: 'slider' });
  const kind = request.kind;

  useEffect(() => {
    let live = true;
    api
      .post('/auth/api/captcha/challenge', { kind: request.kind })
      .then((next) => {
        if (live) setChallenge(next);
      })
      .catch(() => {
        // The client already showed why (spec §8); the refresh button stays.
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [api, request]);

  useEffect(() => {
    if (!challenge) return;
    const search = new AbortController();
    pow.current = solvePow(challenge.pow, { signal: search.signal });
    return () => {
      search.abort();
      pow.current = null;
    };
  }, [challenge]);

  const load = (next: 'slider' | 'text') => {
    setLoading(true);
    setChallenge(null);
    setX(0);
    setAnswer('');
    track.current = [];
    keyStart.current = null;
    setRequest({ kind: next });
  };

  // The picture is drawn at 300 px and shown at the frame's width: keep the ratio to convert positions.
  useEffect(() => {
    const el = frame.current;
    if (!el || !challenge || challenge.kind !== 'slider') return;
    const measure = () => setScale(el.clientWidth / challenge.width);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [challenge]);

  const check = async (body: { id: string; x: number; track: TrackPoint[] } | { id: string; answer: string }) => {
    setChecking(true);
    try {
      const solution = await pow.current;
      // Null: the picture was replaced meanwhile, or the challenge is one this client cannot solve; either way, a new one.
      if (solution === null || solution === undefined) throw new Error('no proof of work');
      const { ticket } = await api.post('/auth/api/captcha/verify', { ...body, pow: solution });
      onSolved(ticket);
    } catch {
      // Each picture takes one answer: show the failure and a new one.
      setFailed(true);
      load(kind);
    } finally {
      setChecking(false);
    }
  };

  const slider = challenge?.kind === 'slider' ? challenge : null;
  const maxX = slider ? slider.width - slider.pieceSize : 0;
  const clamp = (value: number) => Math.min(maxX, Math.max(0, value));

  const record = (point: TrackPoint, force = false) => {
    const last = track.current[track.current.length - 1];
    if (force || !last || point.t - last.t >= SAMPLE_MS) track.current.push(point);
  };

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (!slider || checking) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    start.current = { pointerX: event.clientX, pointerY: event.clientY, at: performance.now() };
    track.current = [{ x: 0, y: 0, t: 0 }];
    setFailed(false);
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    if (!start.current) return;
    const next = clamp((event.clientX - start.current.pointerX) / scale);
    setX(next);
    record({ x: round(next), y: round((event.clientY - start.current.pointerY) / scale), t: round(performance.now() - start.current.at) });
  };
  const onPointerUp = (event: PointerEvent<HTMLButtonElement>) => {
    if (!start.current) return;
    const began = start.current;
    start.current = null;
    const final = clamp((event.clientX - began.pointerX) / scale);
    setX(final);
    if (final < 1) return; // a tap, not a drag
    record({ x: round(final), y: round((event.clientY - began.pointerY) / scale), t: round(performance.now() - began.at) }, true);
    void check({ id: slider!.id, x: round(final), track: track.current });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!slider || checking) return;
    const delta = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[event.key];
    if (delta !== undefined) {
      event.preventDefault();
      const now = performance.now();
      if (keyStart.current === null) {
        keyStart.current = now;
        track.current = [{ x: 0, y: 0, t: 0 }];
        setFailed(false);
      }
      const next = clamp(x + delta * (event.shiftKey ? BIG_STEP : STEP));
      setX(next);
      track.current.push({ x: round(next), y: 0, t: round(now - keyStart.current) });
    } else if ((event.key === 'Enter' || event.key === ' ') && x > 0) {
      event.preventDefault();
      void check({ id: slider.id, x: round(x), track: track.current });
    }
  };

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="captcha-title"
      className="fixed inset-0 z-50 flex items-end justify-center bg-black/50 sm:items-center"
      data-testid="captcha"
    >
      <div className="w-full max-w-(--container-app) rounded-t-2xl bg-white p-4 pb-[max(1rem,env(safe-area-inset-bottom))] shadow-xl sm:rounded-2xl">
        <div className="mb-3 flex items-center justify-between">
          <h2 id="captcha-title" className="text-base font-semibold text-neutral-900">
            {t('title')}
          </h2>
          <div className="flex gap-1">
            <button
              type="button"
              onClick={() => load(kind)}
              aria-label={t('refresh')}
              className="flex size-9 items-center justify-center rounded-full text-neutral-500 active:bg-neutral-100"
            >
              <LineIcon className="size-5" sharpCorners>
                <path d="M20 12a8 8 0 1 1-2.3-5.6M20 4v5h-5" />
              </LineIcon>
            </button>
            <button
              type="button"
              onClick={onClose}
              aria-label={t('close')}
              className="flex size-9 items-center justify-center rounded-full text-neutral-500 active:bg-neutral-100"
            >
              <LineIcon className="size-5">
                <path d="M6 6l12 12M18 6L6 18" />
              </LineIcon>
            </button>
          </div>
        </div>

        <p aria-live="polite" className={`mb-2 text-sm ${failed ? 'text-red-600' : 'text-neutral-500'}`}>
          {failed ? t('failed') : kind === 'slider' ? t('slide') : null}
        </p>

        {kind === 'slider' ? (
          <>
            <div ref={frame} className="relative aspect-[300/160] w-full overflow-hidden rounded-lg bg-neutral-100">
              {slider ? (
                <>
                  {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn per challenge */}
                  <img src={slider.background} alt="" draggable={false} className="absolute inset-0 size-full select-none" />
                  {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn per challenge */}
                  <img
                    src={slider.piece}
                    alt=""
                    draggable={false}
                    data-testid="captcha-piece"
                    className="absolute drop-shadow-[0_0_3px_rgba(0,0,0,0.6)] select-none"
                    style={{ left: x * scale, top: slider.y * scale, width: slider.pieceSize * scale, height: slider.pieceSize * scale }}
                  />
                </>
              ) : (
                <p className="absolute inset-0 flex items-center justify-center text-sm text-neutral-500">
                  {loading ? t('loading') : null}
                </p>
              )}
            </div>
            <div className="relative mt-3 h-11 rounded-full bg-neutral-100">
              <div className="absolute inset-y-0 left-0 rounded-full bg-skin-light" style={{ width: slider ? x * scale + 44 : 0 }} />
              <button
                type="button"
                role="slider"
                aria-label={t('sliderLabel')}
                aria-valuemin={0}
                aria-valuemax={Math.round(maxX)}
                aria-valuenow={Math.round(x)}
                aria-describedby="captcha-keys"
                disabled={!slider || checking}
                data-testid="captcha-handle"
                onPointerDown={onPointerDown}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={() => {
                  start.current = null;
                  setX(0);
                }}
                onKeyDown={onKeyDown}
                className="absolute top-0 flex h-11 w-11 touch-none items-center justify-center rounded-full bg-skin-button text-skin-button-text shadow-card disabled:opacity-60"
                style={{ left: x * scale }}
              >
                <LineIcon className="size-5" strokeWidth={2.2}>
                  <path d="M5 12h14M13 6l6 6-6 6" />
                </LineIcon>
              </button>
            </div>
            <p id="captcha-keys" className="sr-only">
              {t('keyboardHint')}
            </p>
          </>
        ) : (
          <form
            className="flex flex-col gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              if (challenge?.kind === 'text' && answer.trim()) void check({ id: challenge.id, answer: answer.trim() });
            }}
          >
            <label className="flex flex-col gap-2 text-base text-neutral-900">
              <span>{challenge?.kind === 'text' ? t('question', { a: challenge.question.a, b: challenge.question.b }) : t('loading')}</span>
              <input
                value={answer}
                onChange={(event) => setAnswer(event.target.value.replace(/\D/g, '').slice(0, 4))}
                inputMode="numeric"
                autoComplete="off"
                aria-label={t('answer')}
                placeholder={t('answer')}
                className="h-11 rounded-lg border border-black/15 px-3 text-base"
              />
            </label>
            <button
              type="submit"
              disabled={checking || !answer}
              className="h-11 rounded-full bg-skin-button text-base font-medium text-skin-button-text disabled:opacity-60"
            >
              {t('submit')}
            </button>
          </form>
        )}

        <button
          type="button"
          onClick={() => {
            setFailed(false);
            load(kind === 'slider' ? 'text' : 'slider');
          }}
          className="mt-3 w-full py-2 text-center text-sm text-skin-1 underline underline-offset-2"
        >
          {kind === 'slider' ? t('useText') : t('useSlider')}
        </button>
      </div>
    </div>
  );
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
