// The notebook widget (tl.widget, anywidget): the explorer's own page, run in an iframe
// inside the notebook, whose API requests this module relays to the kernel over the
// widget's comm (tilelayout.explorer.answers.answer: the server's own view functions).
// The page's modules are loaded unchanged from the kernel's copy of explorer/static,
// as blob URLs named by an import map; the page reads its first view from
// globalThis.tilelayoutQuery (the URL query it would have had) and keeps no URL.

const MODULE_IMPORT = /((?:from|import)\s*)"\.\/([\w-]+\.js)"/g;

function pageHtml(files, query) {
  const urls = {};
  for (const [name, text] of Object.entries(files)) {
    if (!name.endsWith(".js")) continue;
    const src = text.replace(MODULE_IMPORT, (_, kw, dep) => `${kw}"tilelayout-page/${dep}"`);
    urls[`tilelayout-page/${name}`] = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
  }
  const boot = `<script>
globalThis.tilelayoutQuery = ${JSON.stringify(query)};
history.replaceState = () => {};
let next = 0;
const waiting = new Map();
addEventListener("message", (ev) => {
  const m = ev.data;
  if (ev.source !== parent || !m || m.tilelayout !== "answer" || !waiting.has(m.id)) return;
  waiting.get(m.id)(m);
  waiting.delete(m.id);
});
// the page's fetch, answered by the kernel: a Response-like object, as api.js reads it
window.fetch = (url, init) => new Promise((resolve) => {
  const id = ++next;
  waiting.set(id, (m) => resolve({ ok: m.status < 400, status: m.status, json: async () => m.data }));
  const [path, query] = String(url).split("?");
  parent.postMessage({ tilelayout: "request", id, method: (init && init.method) || "GET", path,
    soft: (query || "").split("&").includes("soft=1"),
    body: init && init.body ? JSON.parse(init.body) : null }, "*");
});
<\/script>
<script type="importmap">${JSON.stringify({ imports: urls })}<\/script>`;
  return files["index.html"]
    .replace(/<link rel="stylesheet" href="\/static\/style.css">/, () => `<style>${files["style.css"]}</style>`)
    .replace(/<script type="module" src="\/static\/app.js"><\/script>/,
      () => `${boot}<script type="module">import "tilelayout-page/app.js";<\/script>`);
}

function render({ model, el }) {
  const frame = document.createElement("iframe");
  frame.className = "tilelayout-widget";
  frame.title = "tilelayout explorer";
  frame.style.height = `${model.get("height")}px`;
  frame.srcdoc = pageHtml(model.get("files"), model.get("query"));
  el.appendChild(frame);
  const onMessage = (ev) => {
    const m = ev.data;
    if (ev.source !== frame.contentWindow || !m || m.tilelayout !== "request") return;
    model.send({ id: m.id, method: m.method, path: m.path, soft: m.soft, body: m.body });
  };
  const onAnswer = (msg) => {
    if (msg && msg.tilelayout === "answer" && frame.contentWindow) frame.contentWindow.postMessage(msg, "*");
  };
  window.addEventListener("message", onMessage);
  model.on("msg:custom", onAnswer);
  return () => {
    window.removeEventListener("message", onMessage);
    model.off("msg:custom", onAnswer);
  };
}

export default { render };
