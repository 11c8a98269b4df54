// The page's only way to the library: the explorer's JSON API.
// Requests go with ?soft=1: a refused request (bad layout text while typing, ...) comes back
// as 200 with {error, field, column, status}, so the console stays quiet for bad input;
// it is thrown here as an Error carrying that body. Real failures (5xx, network) throw too.

export async function getJSON(url) {
  const r = await fetch(url);
  return r.json();
}

export async function postJSON(url, body) {
  const r = await fetch(`${url}?soft=1`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok || data.status) {
    const e = new Error(data.error || `HTTP ${r.status}`);
    e.data = data;
    throw e;
  }
  return data;
}

// what is drawn, as a request: follow-up queries (explain, elements_at, access, analysis,
// convert, table) ask about the picture on screen, not the fields (which may hold a
// half-typed layout, or a shape that was ignored because it does not fit)
export function drawnRequest(data) {
  return { layout: data.text, shape: data.shape.join(","), dtype: data.dtype, swizzle: data.swizzle_mode };
}
