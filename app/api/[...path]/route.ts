import { dispatch } from '@/lib/api/dispatcher';

// The one API route handler (DESIGN §3): every market call is POST {API_BASE}{path} → lib/api dispatcher.
async function handle(request: Request, { params }: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const { path } = await params;
  const result = await dispatch({
    method: request.method,
    path: `/${path.join('/')}`,
    host: request.headers.get('host') ?? '',
    body: request.method === 'POST' ? await request.text() : '',
  });
  return Response.json(result.body, { status: result.status, headers: { 'cache-control': 'no-store' } });
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
