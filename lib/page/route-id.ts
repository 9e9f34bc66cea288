/** A database id in a route (`/goods/detail/:saleId`, `/receive_detail/:id/...`): a positive int4, else null (→ /404). */
export function routeId(raw: string | undefined): number | null {
  if (raw === undefined || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}
