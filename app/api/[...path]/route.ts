import { handleApiRequest } from '@/lib/server/http';

// The one API route handler (DESIGN §3): every market call is POST {API_BASE}{path} → lib/api dispatcher.
async function handle(request: Request, { params }: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const { path } = await params;
  return handleApiRequest(request, `/${path.join('/')}`);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
