/**
 * Liveness of the site process itself (it does not call the API): for process managers, load
 * balancers and the test harness, which must not spend a rate-limited key on readiness checks.
 */
export const GET = (): Response =>
  Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
