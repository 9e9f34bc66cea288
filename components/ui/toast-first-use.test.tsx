/** @jest-environment jsdom */
import { act, render, screen } from '@testing-library/react';
import { deferToast, showToast, ToastHost } from './toast';
// sonner asks for media preferences, which jsdom cannot answer.
import '@/test/match-media-polyfill';

// Toasts load sonner (./toaster) with the first toast, not with the page (DESIGN §10, issue 15).

let mockToasterLoads = 0;
jest.mock('./toaster', () => {
  mockToasterLoads++;
  return jest.requireActual('./toaster');
});

it('the host loads nothing until a toast is raised; toasts raised while sonner loads all show, in order', async () => {
  render(<ToastHost label="Notifications" />);
  expect(mockToasterLoads).toBe(0);
  const sonnerRegion = () => document.querySelector('section[aria-label^="Notifications"]');
  expect(sonnerRegion()).toBeNull();
  act(() => {
    showToast('error', 'First');
    showToast('warn', 'Second');
  });
  expect(await screen.findByText('First')).toBeInTheDocument();
  expect(await screen.findByText('Second')).toBeInTheDocument();
  expect(sonnerRegion()).not.toBeNull();
  const texts = [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent);
  expect(texts.indexOf('Second')).toBeLessThan(texts.indexOf('First')); // sonner shows the newest on top
  act(() => showToast('success', 'Third'));
  expect(await screen.findByText('Third')).toBeInTheDocument();
  expect(mockToasterLoads).toBe(1);
});

it('a toast deferred to the next page shows when the page has mounted', async () => {
  deferToast('success', 'welcome');
  render(<ToastHost label="Notifications" />);
  expect(await screen.findByText('welcome')).toBeInTheDocument();
  expect(sessionStorage.getItem('storefront:toast')).toBeNull();
});
