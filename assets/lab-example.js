// The example lab page's side of Tidemark's postMessage API (README, "Embedding: talking to a lab
// page"): each embed is sized to the height it announces, and a student's quiz answers show as a
// score next to the embed. The embeds sit next to this page, so only messages from this page's
// own origin, sent by one of its iframes, are read; nothing in them is evaluated or written as HTML.
const MAX_HEIGHT = 4000;

function frameOf(source) {
  return [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === source);
}

/** The height of any of the three resize formats (Tidemark's, Canvas LMS's, the common one). */
function announcedHeight(d) {
  const resize = d.type === 'tidemark:resize' || d.subject === 'lti.frameResize' || d.context === 'iframe.resize';
  const h = resize ? Number(d.height) : NaN;
  return Number.isFinite(h) && h > 0 ? Math.min(Math.ceil(h), MAX_HEIGHT) : null;
}

/** The score line after `frame` (made on the first answer when the page has none). */
function scoreLine(frame) {
  const section = frame.closest('section') || frame.parentElement;
  let line = section.querySelector('[data-quiz-score]');
  if (!line) {
    line = document.createElement('p');
    line.className = 'quiz-score';
    line.setAttribute('data-quiz-score', '');
    line.setAttribute('aria-live', 'polite');
    frame.after(line);
  }
  return line;
}

addEventListener('message', (e) => {
  if (e.origin !== location.origin) return;
  const frame = frameOf(e.source);
  const d = e.data;
  if (!frame || !d || typeof d !== 'object') return;
  const height = announcedHeight(d);
  if (height !== null) frame.style.height = `${height}px`;
  if (d.type === 'tidemark:quiz-answered' && d.v === 1 && d.score) {
    const { correct, answered, questions } = d.score;
    const last = d.correct === true ? 'right' : 'not quite';
    scoreLine(frame).textContent =
      `Quiz: ${Number(correct)} of ${Number(answered)} right (${Number(questions)} questions). Last answer: ${last}.`;
    scoreLine(frame).dataset.correct = String(Number(correct));
    scoreLine(frame).dataset.answered = String(Number(answered));
  }
});
