'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useGesture } from '@use-gesture/react';
import { LineIcon } from './line-icon';

// spec §2 / §9 image viewer constants.
export const SWIPE_THRESHOLD_PX = 40;
export const CLOSE_DRAG_RATIO = 0.14;
export const DOUBLE_TAP_MS = 300;
export const MAX_ZOOM_FLOOR = 6;
export const GESTURE_THROTTLE_MS = 8;
/** Zoom a double tap toggles to. */
export const DOUBLE_TAP_ZOOM = 2.5;

/** A horizontal swipe over 40 px changes photo: left → next, right → previous. */
export function swipeDirection(dx: number, dy: number): 'next' | 'prev' | null {
  if (Math.abs(dx) <= SWIPE_THRESHOLD_PX || Math.abs(dx) < Math.abs(dy)) return null;
  return dx < 0 ? 'next' : 'prev';
}

/** A vertical drag over 14% of the screen height closes the viewer (when not zoomed). */
export function shouldClose(dx: number, dy: number, screenHeight: number, zoom: number): boolean {
  return zoom <= 1 && Math.abs(dy) > Math.abs(dx) && Math.abs(dy) > CLOSE_DRAG_RATIO * screenHeight;
}

/** Max zoom: the larger of 6 and the image's natural/display size ratio. */
export function maxZoom(naturalWidth: number, displayWidth: number): number {
  if (!(naturalWidth > 0) || !(displayWidth > 0)) return MAX_ZOOM_FLOOR;
  return Math.max(MAX_ZOOM_FLOOR, naturalWidth / displayWidth);
}

/** Two taps within 300 ms are a double tap. */
export function isDoubleTap(previousTapAt: number | null, now: number): boolean {
  return previousTapAt !== null && now - previousTapAt <= DOUBLE_TAP_MS;
}

/** Time-based throttle: at most one call per `ms`; the last call of a gesture is always let through by callers. */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number, now: () => number = () => performance.now()) {
  let last = -Infinity;
  return (...args: A) => {
    const t = now();
    if (t - last < ms) return;
    last = t;
    fn(...args);
  };
}

export type ViewerImage = { src: string; alt: string };

type Props = {
  images: ViewerImage[];
  startIndex?: number;
  open: boolean;
  onClose: () => void;
  onIndexChange?: (index: number) => void;
  label?: string;
  closeLabel?: string;
};

/**
 * Full-screen image viewer (spec §2): swipe to change photo, drag down or up to close, double tap to zoom, pinch to
 * zoom up to maxZoom; touch and mouse alike (pointer events). Arrow keys and Escape for keyboards.
 */
export function ImageViewer({ images, startIndex = 0, open, onClose, onIndexChange, label = 'Image viewer', closeLabel = 'Close' }: Props) {
  const [index, setIndex] = useState(startIndex);
  const [zoom, setZoom] = useState(1);
  const [offset, setOffset] = useState<[number, number]>([0, 0]);
  const [dragging, setDragging] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  const image = useRef<HTMLImageElement>(null);
  const lastTap = useRef<number | null>(null);
  const pan = useRef<[number, number]>([0, 0]);
  const total = images.length;

  const go = useCallback(
    (next: number) => {
      const clamped = Math.min(total - 1, Math.max(0, next));
      setIndex(clamped);
      setZoom(1);
      setOffset([0, 0]);
      pan.current = [0, 0];
      onIndexChange?.(clamped);
    },
    [total, onIndexChange],
  );

  const limit = () => maxZoom(image.current?.naturalWidth ?? 0, image.current?.clientWidth ?? 0);
  const moveThrottled = useRef(throttle((x: number, y: number) => setOffset([x, y]), GESTURE_THROTTLE_MS));
  const pinchThrottled = useRef(throttle((scale: number) => setZoom(scale), GESTURE_THROTTLE_MS));

  useGesture(
    {
      onDrag: ({ movement: [mx, my], last, tap, timeStamp }) => {
        if (tap) {
          if (isDoubleTap(lastTap.current, timeStamp)) {
            lastTap.current = null;
            setZoom((z) => (z > 1 ? 1 : DOUBLE_TAP_ZOOM));
            setOffset([0, 0]);
            pan.current = [0, 0];
          } else {
            lastTap.current = timeStamp;
          }
          return;
        }
        if (zoom > 1) {
          // Zoomed: the drag pans the photo.
          const x = pan.current[0] + mx;
          const y = pan.current[1] + my;
          if (last) {
            pan.current = [x, y];
            setOffset([x, y]);
          } else moveThrottled.current(x, y);
          return;
        }
        if (!last) {
          setDragging(true);
          moveThrottled.current(mx, my);
          return;
        }
        setDragging(false);
        setOffset([0, 0]);
        if (shouldClose(mx, my, window.innerHeight, zoom)) onClose();
        else {
          const direction = swipeDirection(mx, my);
          if (direction === 'next') go(index + 1);
          if (direction === 'prev') go(index - 1);
        }
      },
      onPinch: ({ offset: [scale], last }) => {
        const next = Math.min(limit(), Math.max(1, scale));
        if (last) setZoom(next);
        else pinchThrottled.current(next);
      },
    },
    {
      target: stage,
      enabled: open,
      eventOptions: { passive: false },
      drag: { filterTaps: true, pointer: { touch: true } },
      pinch: { scaleBounds: () => ({ min: 1, max: limit() }), rubberband: false },
    },
  );

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      else if (event.key === 'ArrowRight') go(index + 1);
      else if (event.key === 'ArrowLeft') go(index - 1);
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
    };
  }, [open, index, go, onClose]);

  const current = images[index];
  if (!open || !current || typeof document === 'undefined') return null;
  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      aria-label={label}
      className="fixed inset-0 z-50 mx-auto flex max-w-(--container-app) flex-col bg-black text-white"
    >
      <div className="flex items-center justify-between px-4 py-3 text-sm">
        <span data-testid="viewer-counter" aria-live="polite">{`${index + 1} / ${total}`}</span>
        <button
          type="button"
          onClick={onClose}
          aria-label={closeLabel}
          className="flex size-[0.72rem] items-center justify-center rounded-full bg-white/10"
        >
          <LineIcon className="size-[0.36rem]">
            <path d="M6 6l12 12M18 6L6 18" />
          </LineIcon>
        </button>
      </div>
      <div
        ref={stage}
        data-testid="viewer-stage"
        className="relative flex flex-1 touch-none items-center justify-center overflow-hidden select-none"
      >
        {/* A plain img: the viewer shows the file at its natural resolution for zooming, not a resized variant. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img
          ref={image}
          key={current.src}
          src={current.src}
          alt={current.alt}
          draggable={false}
          data-zoom={zoom}
          className={`max-h-full w-full object-contain ${dragging ? '' : 'transition-transform duration-200 motion-reduce:transition-none'}`}
          style={{ transform: `translate3d(${offset[0]}px, ${offset[1]}px, 0) scale(${zoom})` }}
        />
      </div>
    </div>,
    document.body,
  );
}
