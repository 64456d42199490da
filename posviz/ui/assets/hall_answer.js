// A student's answer box (posviz/ui/hall.py: _answer_box): the question's choices as radio buttons, or a number
// and a Send button. An answer goes to posviz's route (posviz/ui/routes.py: hall_answer) as JSON; it is shown
// acknowledged once the store holds it, and may be changed until the reveal. No script run per answer.
// Every text comes from the page's data, in the user's language; none is written as HTML.
function rich(el, template, answer) {
  // the texts' **bold** (posviz/text): text nodes and <strong>, never innerHTML
  el.replaceChildren();
  template.split('**').forEach((part, i) => {
    const s = part.replaceAll('{answer}', answer);
    el.appendChild(i % 2 ? Object.assign(document.createElement('strong'), {textContent: s})
      : document.createTextNode(s));
  });
}

function build(root, d) {
  const form = document.createElement('form');
  form.className = 'posviz-hall-answer';
  form.noValidate = true;
  const box = document.createElement('fieldset');
  const legend = Object.assign(document.createElement('legend'), {textContent: d.labels.answer});
  box.appendChild(legend);
  const ack = Object.assign(document.createElement('p'), {className: 'posviz-hall-ack'});
  ack.setAttribute('role', 'status');
  const c = {d, form, ack, inputs: [], seq: 0};
  if (d.choices) {
    d.choices.forEach((choice, i) => {
      const label = document.createElement('label');
      const input = Object.assign(document.createElement('input'), {type: 'radio', name: `posviz-${d.q}`, value: i});
      input.addEventListener('change', () => send(c, i, choice));
      label.append(input, Object.assign(document.createElement('span'), {textContent: choice}));
      box.appendChild(label);
      c.inputs.push(input);
    });
  } else {
    const input = Object.assign(document.createElement('input'), {type: 'number', min: d.number[0],
      max: d.number[1], step: 'any', inputMode: 'decimal'});
    input.setAttribute('aria-label', d.labels.answer);
    const button = Object.assign(document.createElement('button'), {type: 'submit', textContent: d.labels.send});
    const row = Object.assign(document.createElement('div'), {className: 'posviz-hall-number'});
    row.append(input, button);
    box.appendChild(row);
    c.inputs.push(input);
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const raw = c.inputs[0].value.trim();
    if (!d.choices) send(c, raw === '' ? null : Number(raw), raw);
  });
  form.append(box, ack);
  root.replaceChildren(form);
  return c;
}

function show(c, template, answer, error) {
  c.ack.classList.toggle('posviz-hall-error', Boolean(error));
  if (error) c.ack.textContent = error;
  else rich(c.ack, template, answer);
}

async function send(c, value, shown) {
  const d = c.d;
  const seq = ++c.seq;                             // the last tap's answer is the one shown
  c.form.setAttribute('aria-busy', 'true');
  try {
    const r = await fetch(new URL(d.url, window.location.origin), {
      method: 'POST', credentials: 'same-origin', cache: 'no-store',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({room: d.room, me: d.me, q: d.q, v: value, lang: d.lang})});
    const got = await r.json();
    if (seq !== c.seq) return;
    if (r.ok) show(c, d.labels[got.status], shown);
    else show(c, null, null, got.error);
  } catch (e) {
    if (seq === c.seq) show(c, null, null, d.labels.failed);
  } finally {
    if (seq === c.seq) c.form.removeAttribute('aria-busy');
  }
}

export default function (component) {
  const {data, parentElement: root} = component;
  if (!data) return;
  const key = JSON.stringify([data.room, data.me, data.q, data.lang]);
  if (root.__posvizAnswer && root.__posvizAnswer.key === key) return;   // the same question: keep what is shown
  const c = build(root, data);
  root.__posvizAnswer = {key, c};
  if (data.mine !== null && data.mine !== undefined) {                   // a reload: the answer the store holds
    if (data.choices) {
      c.inputs[data.mine].checked = true;
      show(c, data.labels.kept, data.choices[data.mine]);
    } else {
      c.inputs[0].value = data.mine;
      show(c, data.labels.kept, String(data.mine));
    }
  }
}
