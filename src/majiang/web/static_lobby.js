// The lobby's rules form: every rule set has its own group of options (server-rendered from the
// rule set's option list, defaults filled in); only the chosen rule set's group is shown.
const preset = document.getElementById("preset");
function show() {
  document.querySelectorAll("fieldset.opts").forEach(fs => { fs.hidden = fs.dataset.preset !== preset.value; });
}
preset.addEventListener("change", show);
show();
