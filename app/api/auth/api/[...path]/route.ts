import { handleApiRequest } from '@/lib/server/http';

// spec §7's account calls live under /auth/api/..., so with API_BASE /api they are /api/auth/api/...; next-auth owns
// /api/auth/* (app/api/auth/[...nextauth]). This more specific route sends them to the market API like any other call.
async function handle(request: Request, { params }: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const { path } = await params;
  return handleApiRequest(request, `/auth/api/${path.join('/')}`);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
