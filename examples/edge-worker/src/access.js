// Who may call the worker. Without this it would be an open proxy spending the owner's
// upstream API key for anyone on the internet, so it refuses to serve until a caller
// credential is configured:
//   CALLER_TOKEN        secret: the bearer token(s) callers send as `Authorization: Bearer …`;
//                       several, comma-separated, give each calling app its own identity
//                       (and its own rate limit) and let a token be rotated without downtime
//   ACCESS_TEAM_DOMAIN  with ACCESS_AUD: also accept a Cloudflare Access JWT
//   ACCESS_AUD          (`Cf-Access-Jwt-Assertion`) from <team>.cloudflareaccess.com
//   ACCESS_CERTS_URL    tests only: where the team's signing keys are fetched from
//   METRICS_TOKEN       secret, optional: the only credential /metrics accepts when set
//   ALLOW_UNAUTHENTICATED = "dev-only"  serve without credentials, but only on a loopback
//                       host (`wrangler dev`); never set it for a deploy

const encoder = new TextEncoder();

/** A refusal: the HTTP status, a machine-readable error and a message safe to show. */
const refuse = (status, error, message) => ({ refused: { status, error, message } });

/** Why the worker must not serve with this configuration (a message naming what to set), or null. */
export function configurationError(env, url) {
  if (Boolean(env.ACCESS_TEAM_DOMAIN) !== Boolean(env.ACCESS_AUD)) {
    return "Cloudflare Access needs both ACCESS_TEAM_DOMAIN and ACCESS_AUD; set the missing one or neither";
  }
  if (env.CALLER_TOKEN || env.ACCESS_AUD) return null;
  if (devOnlyOpen(env, url)) return null;
  if (env.ALLOW_UNAUTHENTICATED) {
    return 'ALLOW_UNAUTHENTICATED="dev-only" only works on a loopback host (wrangler dev); set the secret CALLER_TOKEN: `wrangler secret put CALLER_TOKEN`';
  }
  return "no caller credential is configured: set the secret CALLER_TOKEN (`wrangler secret put CALLER_TOKEN`) or Cloudflare Access (ACCESS_TEAM_DOMAIN and ACCESS_AUD)";
}

/** The local-only escape hatch: no credential configured, the var set, and a loopback host. */
function devOnlyOpen(env, url) {
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  return env.ALLOW_UNAUTHENTICATED === "dev-only" && loopback && !env.CALLER_TOKEN && !env.ACCESS_AUD;
}

/**
 * The caller's identity (`{ caller }`: "token:<hash prefix>", "access:<subject>" or
 * "anonymous") or `{ refused }`. A request is admitted by a valid bearer token or a valid
 * Access JWT; any credential presented that does not check out is a 403, none at all a 401.
 * `metrics`: the /metrics route, which takes METRICS_TOKEN alone when that is set, so a
 * scraper's token cannot spend the upstream key and a caller's cannot read the metrics.
 */
export async function authenticate(request, env, { metrics = false } = {}) {
  if (devOnlyOpen(env, new URL(request.url))) return { caller: "anonymous" };
  const metricsToken = (metrics && env.METRICS_TOKEN) || null;
  const bearer = bearerToken(request);
  // The Access header counts only where Access is configured (and not on a /metrics that
  // has its own token); elsewhere it is ignored, as any other unknown header.
  const jwt = env.ACCESS_AUD && !metricsToken ? request.headers.get("cf-access-jwt-assertion") : null;
  if (bearer === null && !jwt) return refuse(401, "unauthenticated", "send Authorization: Bearer <token>");
  let caller = null;
  if (bearer !== null) {
    caller = await matchToken(bearer, metricsToken || env.CALLER_TOKEN);
    if (!caller) return refuse(403, "forbidden", "the bearer token is not valid");
  }
  if (jwt) {
    const checked = await verifyAccessJwt(jwt, env);
    if (checked.refused) return checked;
    caller = `access:${checked.claims.sub || checked.claims.common_name}`;
  }
  return { caller };
}

/** The token of an `Authorization: Bearer …` header, or null when there is none. */
function bearerToken(request) {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}

async function sha256(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Equal-length byte arrays compared in constant time: no exit at the first difference. */
function sameBytes(a, b) {
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

/**
 * The identity of the configured token (comma-separated list) that `presented` equals,
 * or null. Digests are compared, never the tokens, so the time taken says nothing about
 * how much of a guess was right; every configured token is checked.
 */
async function matchToken(presented, configured = "") {
  const digest = await sha256(presented);
  let caller = null;
  for (const token of configured.split(",").map((t) => t.trim()).filter(Boolean)) {
    const expected = await sha256(token);
    if (sameBytes(digest, expected) && !caller) caller = `token:${hex(expected).slice(0, 16)}`;
  }
  return caller;
}

const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

// ---- Cloudflare Access ----

// The team's signing keys, per certs URL: `{ fetchedAt, keys: Promise<Map<kid, CryptoKey>> }`.
// Access rotates keys every few weeks and publishes the next one in advance, so a cached
// set is good for a while; an unknown `kid` refetches, but at most every 30 s, so forged
// tokens with random key ids cannot make every request hit the certs endpoint.
const certCache = new Map();
const CERTS_MAX_AGE_MS = 10 * 60 * 1000;
const CERTS_MIN_REFETCH_MS = 30 * 1000;
const CLOCK_SKEW_S = 60;

const accessIssuer = (env) => `https://${env.ACCESS_TEAM_DOMAIN.replace(/^https?:\/\//, "").replace(/\/+$/, "")}`;

/** The claims of a valid Access JWT (`{ claims }`), or `{ refused }` saying what is wrong. */
async function verifyAccessJwt(jwt, env) {
  const [headerPart, payloadPart, signaturePart, extra] = jwt.split(".");
  const header = decodeJson(headerPart);
  const claims = decodeJson(payloadPart);
  if (extra !== undefined || !header || !claims || signaturePart === undefined) {
    return refuse(403, "forbidden", "the Access token is malformed");
  }
  if (header.alg !== "RS256") return refuse(403, "forbidden", "the Access token is not RS256");
  let key;
  try {
    key = await accessKey(env.ACCESS_CERTS_URL || `${accessIssuer(env)}/cdn-cgi/access/certs`, header.kid);
  } catch {
    return refuse(503, "access_unavailable", "the Access signing keys could not be fetched");
  }
  const signed = encoder.encode(`${headerPart}.${payloadPart}`);
  const signature = base64url(signaturePart);
  if (!key || !signature || !(await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key, signature, signed))) {
    return refuse(403, "forbidden", "the Access token's signature is not valid");
  }
  const problem = claimsProblem(claims, env);
  return problem ? refuse(403, "forbidden", problem) : { claims };
}

/** What is wrong with verified claims for this application, or null. */
function claimsProblem(claims, env) {
  const now = Date.now() / 1000;
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(env.ACCESS_AUD)) return "the Access token is for another application (aud)";
  if (claims.iss !== accessIssuer(env)) return "the Access token is from another team (iss)";
  if (typeof claims.exp !== "number" || claims.exp + CLOCK_SKEW_S < now) return "the Access token has expired";
  if (typeof claims.nbf === "number" && claims.nbf - CLOCK_SKEW_S > now) return "the Access token is not valid yet";
  if (!claims.sub && !claims.common_name) return "the Access token names no subject";
  return null;
}

/** The signing key `kid` of the team at `url`, fetched lazily and cached; undefined if unknown. */
async function accessKey(url, kid) {
  let entry = certCache.get(url);
  const age = entry ? Date.now() - entry.fetchedAt : Infinity;
  if (age > CERTS_MAX_AGE_MS) entry = loadCerts(url);
  let keys = await entry.keys;
  if (!keys.has(kid) && Date.now() - entry.fetchedAt > CERTS_MIN_REFETCH_MS) keys = await loadCerts(url).keys;
  return keys.get(kid);
}

/** Starts fetching the keys at `url` into the cache; a failed fetch leaves nothing cached. */
function loadCerts(url) {
  const entry = { fetchedAt: Date.now(), keys: fetchCerts(url) };
  certCache.set(url, entry);
  entry.keys.catch(() => certCache.get(url) === entry && certCache.delete(url));
  return entry;
}

async function fetchCerts(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`certs: ${response.status}`);
  const { keys = [] } = await response.json();
  const imported = new Map();
  for (const jwk of keys.filter((k) => k.kty === "RSA" && k.kid)) {
    const { kty, n, e } = jwk;
    imported.set(jwk.kid, await crypto.subtle.importKey("jwk", { kty, n, e }, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["verify"]));
  }
  return imported;
}

/** Bytes of a base64url string, or null when it is not one. */
function base64url(text) {
  try {
    return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

function decodeJson(part) {
  const bytes = part === undefined ? null : base64url(part);
  try {
    return bytes ? JSON.parse(new TextDecoder().decode(bytes)) : null;
  } catch {
    return null;
  }
}
