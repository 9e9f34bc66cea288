'use client';

/**
 * Ends the web session: next-auth clears the HttpOnly cookie and its signOut event revokes the API token on the
 * server (lib/auth/next-auth.ts). Never throws: a failed call still leaves the client logged out.
 *
 * next-auth's client is loaded here, on the first logout, not with every page: the API client (on every page) only
 * needs it when the server has ended the session.
 */
export async function endWebSession(): Promise<void> {
  try {
    const { signOut } = await import('next-auth/react');
    await signOut({ redirect: false });
  } catch (error) {
    console.warn('[session] sign-out call failed', error);
  }
}
