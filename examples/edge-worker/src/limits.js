// What one caller can cost the owner: a body size limit and a per-caller rate limit.
//   MAX_BODY_BYTES     default 1 MiB; a larger body is a 413
//   RATE_LIMITER       a Workers rate-limit binding (`[[ratelimits]]` in wrangler.toml)
//   RATE_LIMIT_PERIOD  the binding's period in seconds (default 60), sent as `retry-after`

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const maxBodyBytes = (env) => Number(env.MAX_BODY_BYTES) || DEFAULT_MAX_BODY_BYTES;

/**
 * The request body as text, or null when it is larger than MAX_BODY_BYTES. The declared
 * content-length is checked first, and the bytes are counted as they arrive too, because
 * a chunked body declares no length; reading stops at the first byte over the limit.
 */
export async function readLimitedBody(request, env) {
  const max = maxBodyBytes(env);
  if (Number(request.headers.get("content-length") ?? 0) > max) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * `retry-after` seconds when `caller` is over its rate limit, else null. The key is the
 * caller's identity (a token's hash prefix or an Access subject), never a raw token.
 */
export async function rateLimited(env, caller) {
  const { success } = await env.RATE_LIMITER.limit({ key: caller });
  // The binding says only yes or no; its window is at most one period long.
  return success ? null : String(Number(env.RATE_LIMIT_PERIOD) || 60);
}
