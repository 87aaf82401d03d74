(() => {
  const kit = window.IDKit;
  if (!kit) return;
  const fill = (scope, result) => {
    for (const name of ['nullifier_hash', 'merkle_root', 'proof', 'verification_level'])
      scope.querySelector('input[name="' + name + '"]').value = result[name] || '';
  };
  const run = (appId, action, signal, scope, form) => {
    kit.init({
      app_id: appId,
      action,
      signal,
      onSuccess: (result) => {
        fill(scope, result);
        form.submit();
      },
    });
    kit.open();
  };
  const login = document.querySelector('[data-idkit-login]');
  if (login) {
    const form = login.closest('form');
    const start = () => run(login.dataset.appId, login.dataset.action, login.dataset.signal, login, form);
    form.addEventListener('submit', (event) => {
      if (!form.querySelector('input[name="proof"]').value) {
        event.preventDefault();
        start();
      }
    });
    start();
  }
  for (const box of document.querySelectorAll('[data-idkit-action]')) {
    box.hidden = false;
    const form = box.closest('form');
    form.addEventListener('submit', (event) => {
      if (!box.querySelector('input[name="prove"]').checked || box.querySelector('input[name="proof"]').value) return;
      let action = box.dataset.idkitAction;
      if (action === 'flag_high_severity') {
        const claim = form.querySelector('select[name="claimId"]').value;
        if (!claim || form.querySelector('select[name="severity"]').value !== 'HIGH') return;
        action += ':' + claim;
      }
      event.preventDefault();
      run(box.dataset.appId, action, '', box, form);
    });
  }
})();
