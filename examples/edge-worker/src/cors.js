// Browser callers: only the origins in ALLOWED_ORIGINS (comma-separated, exact, e.g.
// "https://app.example.com"; no wildcard, since every caller holds a credential) may call.
// Server-side callers send no Origin and are unaffected.

const EXPOSED = "x-citeproof-status, x-citeproof-audit-id, x-citeproof-repaired, retry-after";

const allowedOrigins = (env) => (env.ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim()).filter(Boolean);

/** Whether the request comes from no browser origin or from an allowed one. */
export function originAllowed(request, env) {
  const origin = request.headers.get("origin");
  return origin === null || allowedOrigins(env).includes(origin);
}

/** The answer to a CORS preflight: 204 with what may be sent for an allowed origin, else 403. */
export function preflight(request, env) {
  if (!request.headers.get("origin") || !originAllowed(request, env)) return new Response(null, { status: 403, headers: { vary: "Origin" } });
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": request.headers.get("origin"),
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": "authorization, content-type, cf-access-jwt-assertion",
      "access-control-max-age": "600",
      vary: "Origin",
    },
  });
}

/** `response` with `access-control-allow-origin` when the request's origin is allowed. */
export function withCors(response, request, env) {
  const origin = request.headers.get("origin");
  if (origin === null) return response;
  const headers = new Headers(response.headers);
  headers.append("vary", "Origin");
  if (originAllowed(request, env)) {
    headers.set("access-control-allow-origin", origin);
    headers.set("access-control-expose-headers", EXPOSED);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
