'use client';

import { useEffect, useState, type ComponentProps } from 'react';

/*
 * The image viewer (./image-viewer, with its gesture library) loaded when a buyer first opens a photo, not with the
 * page: most visitors of a goods page never open it. Pressing a photo starts the download (preloadImageViewer), so it
 * is usually there by the time the tap ends. Until it is, the viewer shows nothing; the photo stays where it was.
 */

type Viewer = typeof import('./image-viewer').ImageViewer;

let loading: Promise<Viewer> | null = null;
let loaded: Viewer | null = null;

/** Loads the viewer once (a failed load is tried again on the next call). */
function loadImageViewer(): Promise<Viewer> {
  loading ??= import('./image-viewer').then(
    (module) => (loaded = module.ImageViewer),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Starts loading the viewer early (on pressing a photo); a failure shows when the viewer is opened. */
export function preloadImageViewer(): void {
  loadImageViewer().catch(() => {});
}

/** The viewer with the same props; renders nothing while closed, and loads the viewer when first opened. */
export function LazyImageViewer(props: ComponentProps<Viewer>) {
  const [viewer, setViewer] = useState<{ Viewer: Viewer } | null>(() => (loaded ? { Viewer: loaded } : null));
  const { open, onClose } = props;
  useEffect(() => {
    if (!open || viewer) return;
    let live = true;
    loadImageViewer().then(
      (Viewer) => {
        if (live) setViewer({ Viewer });
      },
      (error: unknown) => {
        // Offline or a failed chunk: leave the photo where it was; the next tap tries again.
        console.warn('[image viewer] could not be loaded', error);
        if (live) onClose();
      },
    );
    return () => {
      live = false;
    };
  }, [open, viewer, onClose]);
  if (!viewer) return null;
  return <viewer.Viewer {...props} />;
}
