'use client';

import { signOut } from 'next-auth/react';

/**
 * Ends the web session: next-auth clears the HttpOnly cookie and its signOut event revokes the API token on the
 * server (lib/auth/next-auth.ts). Never throws: a failed call still leaves the client logged out.
 */
export async function endWebSession(): Promise<void> {
  try {
    await signOut({ redirect: false });
  } catch (error) {
    console.warn('[session] sign-out call failed', error);
  }
}
