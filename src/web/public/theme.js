// Sets the colour theme before the page is drawn (an external file: the CSP allows no
// inline script): the operator's choice if remembered, else the system's preference.
(() => {
  let choice = 'auto';
  try {
    choice = localStorage.getItem('theme') || 'auto';
  } catch {}
  const dark =
    choice === 'dark' || (choice === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-bs-theme', dark ? 'dark' : 'light');
})();
