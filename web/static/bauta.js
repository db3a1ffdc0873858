// The web companion's only script (served from our origin: the pages allow no inline script).
// It shows times in the reader's zone and language, keeps a game's page live through server-sent
// events, and drives the replay's slider and arrow keys. Without it every page still reads, and
// every answer still posts as a plain form.
"use strict";

function localTimes(root) {
  const lang = document.documentElement.lang || undefined;
  const relative = typeof Intl.RelativeTimeFormat === "function" ? new Intl.RelativeTimeFormat(lang, { numeric: "auto" }) : null;
  root.querySelectorAll("time[datetime]").forEach((el) => {
    const at = new Date(el.getAttribute("datetime"));
    if (isNaN(at)) return;
    if (el.dataset.style === "R" && relative) {
      const minutes = Math.round((at - Date.now()) / 60000);
      const [n, unit] = Math.abs(minutes) < 90 ? [minutes, "minute"] : Math.abs(minutes) < 2160 ? [Math.round(minutes / 60), "hour"] : [Math.round(minutes / 1440), "day"];
      el.textContent = relative.format(n, unit);
    } else {
      el.textContent = at.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
    }
    el.title = at.toLocaleString(lang);
  });
}

function live(main) {
  let busy = false, again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const answer = await fetch(main.dataset.table, { credentials: "same-origin", cache: "no-store" });
      if (answer.ok) {
        main.innerHTML = await answer.text();
        localTimes(main);
        main.dispatchEvent(new CustomEvent("bauta:updated"));
      }
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }
  const now = main.querySelector("#now");
  const version = now ? now.dataset.version : "";
  const stream = new EventSource(main.dataset.live + "?v=" + encodeURIComponent(version));
  stream.onmessage = () => refresh();
}

function replay(main) {
  const slider = document.getElementById("slider");
  const last = parseInt(main.dataset.last, 10);
  let shown = parseInt(slider.value, 10), wanted = shown, busy = false;
  async function go(k) {
    wanted = Math.max(0, Math.min(last, k));
    slider.value = String(wanted);
    if (busy) return;
    busy = true;
    try {
      while (wanted !== shown) {
        const k = wanted;
        const answer = await fetch(main.dataset.steps + k, { credentials: "same-origin" });
        if (!answer.ok) break;
        const old = document.getElementById("step");
        const holder = document.createElement("div");
        holder.innerHTML = await answer.text();
        old.replaceWith(holder.firstElementChild);
        shown = k;
        localTimes(main);
        history.replaceState(null, "", "?step=" + k);
        main.dispatchEvent(new CustomEvent("bauta:step", { detail: k }));
      }
    } finally {
      busy = false;
    }
  }
  slider.addEventListener("input", () => go(parseInt(slider.value, 10)));
  document.getElementById("prev").addEventListener("click", () => go(wanted - 1));
  document.getElementById("next").addEventListener("click", () => go(wanted + 1));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target !== slider) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); go(wanted - 1); }
    if (event.key === "ArrowRight") { event.preventDefault(); go(wanted + 1); }
    if (event.key === "Home") { event.preventDefault(); go(0); }
    if (event.key === "End") { event.preventDefault(); go(last); }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  localTimes(document);
  const table = document.getElementById("table");
  if (table && table.dataset.live && typeof EventSource === "function") live(table);
  const steps = document.getElementById("replay");
  if (steps) replay(steps);
});
