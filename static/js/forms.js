// Small behaviours of plain forms, written here rather than in onchange/onsubmit
// attributes, which the Content-Security-Policy does not run:
//   <select data-submit-on-change>  sends its form when another option is chosen;
//   <form data-confirm="Question?"> asks before it is sent.
document.addEventListener("change", (event) => {
  const field = event.target;
  if (field instanceof HTMLSelectElement && field.hasAttribute("data-submit-on-change")) {
    field.form?.submit();
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});
