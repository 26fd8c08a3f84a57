// @ts-check
// Copy buttons (api/dashboard/copy-button.tsx): shown only when this script runs; each copies the text of the element
// named by its data-copy and says so for a moment.
(() => {
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('button[data-copy]'))) {
    const target = document.getElementById(button.dataset.copy ?? '');
    if (!target || !navigator.clipboard) continue;
    button.hidden = false;
    const label = button.textContent;
    button.addEventListener('click', () => {
      const text = target instanceof HTMLInputElement ? target.value : target.textContent ?? '';
      navigator.clipboard.writeText(text).then(() => {
        button.textContent = 'Copied';
        setTimeout(() => { button.textContent = label; }, 1500);
      }, () => { button.textContent = 'Select and copy by hand'; });
    });
  }
})();
