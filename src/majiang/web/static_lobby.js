// The lobby's rules form: the controls come from the rule set's own options (server-rendered);
// here each preset's defaults are put in and shown beside each control when the preset changes.
import {t} from "./i18n.js";
const defaults = JSON.parse(document.getElementById("preset-defaults").textContent);
const preset = document.getElementById("preset");
function apply() {
  const d = defaults[preset.value] || {};
  for (const [name, v] of Object.entries(d)) {
    const el = document.getElementById("opt-" + name);
    if (!el) continue;
    if (el.type === "checkbox") el.checked = v === "true"; else el.value = v;
    const note = document.querySelector(`.default[data-for="${name}"]`);
    if (note) {
      let shown = v === "true" ? t("lobby.on") : v === "false" ? t("lobby.off") : v === "" ? t("lobby.none") : v;
      if (el.tagName === "SELECT") { const o = [...el.options].find(o => o.value === v); if (o) shown = o.textContent; }
      note.textContent = t("lobby.default", {value: shown});
    }
  }
}
preset.addEventListener("change", apply);
apply();
