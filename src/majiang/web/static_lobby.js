// The lobby's create-table form: each rule set has its one line for players, its headline options and
// its group of further options (server-rendered from the rule set's own declarations, defaults filled
// in); only the chosen rule set's are shown.
const preset = document.getElementById("preset");
function show() {
  document.querySelectorAll("fieldset.opts, .headline[data-preset], .preset-summary[data-preset]")
    .forEach(el => { el.hidden = el.dataset.preset !== preset.value; });
}
preset.addEventListener("change", show);
show();
