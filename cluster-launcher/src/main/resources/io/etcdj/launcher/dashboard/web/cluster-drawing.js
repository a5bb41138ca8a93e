// Draws the members as nodes on a circle with the peer links between them: the leader green with
// heartbeats flowing to its followers, followers blue, learners purple, down members grey with a
// cross, paused ones amber, partitioned ones with a red dashed ring and cut links.
const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const DOWN = new Set(['stopped', 'killed', 'exited']);

export function roleOf(m) {
  if (DOWN.has(m.state)) return 'none';
  if (!m.answering) return 'unknown';
  if (m.role === 'leader' || m.role === 'follower' || m.role === 'learner') return m.role;
  return 'unknown';
}

function captionOf(m) {
  if (DOWN.has(m.state)) return m.state;
  if (m.state === 'paused') return 'paused';
  if (!m.answering) return 'not answering';
  return m.role || '?';
}

export function drawCluster(root, view) {
  root.replaceChildren();
  const members = view.members;
  const cx = 220, cy = 178, radius = members.length <= 1 ? 0 : 112;
  const pos = new Map();
  members.forEach((m, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, members.length);
    pos.set(m.process, [cx + radius * Math.cos(a), cy + radius * Math.sin(a)]);
  });
  // links first, under the nodes
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      const a = members[i], b = members[j];
      const [x1, y1] = pos.get(a.process), [x2, y2] = pos.get(b.process);
      let cls = 'link';
      if (a.partitioned || b.partitioned) cls += ' cut';
      else if (DOWN.has(a.state) || DOWN.has(b.state) || a.state === 'paused' || b.state === 'paused') cls += ' dead';
      else if (view.leader === a.process || view.leader === b.process) cls += ' heartbeat';
      // heartbeats flow away from the leader
      const fromLeader = view.leader === b.process;
      const line = svg('line', fromLeader ? { x1: x2, y1: y2, x2: x1, y2: y1, class: cls } : { x1, y1, x2, y2, class: cls });
      root.appendChild(line);
      if (cls.includes('cut')) {
        root.appendChild(svg('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 + 5, 'text-anchor': 'middle', 'font-size': 16, fill: '#dc2626' }, '✂'));
      }
    }
  }
  const banner = view.leader
    ? svg('text', { x: 4, y: 18, class: 'center-term' }, `term ${view.term} · leader ${view.leader}`)
    : svg('text', { x: 4, y: 20, class: 'center-term none' }, view.running ? 'no leader: election under way' : 'cluster not running');
  root.appendChild(banner);

  for (const m of members) {
    const [x, y] = pos.get(m.process);
    const role = roleOf(m);
    const classes = ['node', 'role-' + role, 'state-' + m.state];
    if (DOWN.has(m.state)) classes.push('down');
    if (m.partitioned) classes.push('partitioned');
    const g = svg('g', { class: classes.join(' '), 'data-member': m.process, transform: `translate(${x},${y})` });
    g.appendChild(svg('circle', { class: 'ring', r: 46 }));
    g.appendChild(svg('circle', { class: 'body', r: 38 }));
    g.appendChild(svg('text', { class: 'name', y: -2 }, m.process));
    g.appendChild(svg('text', { class: 'inner', y: 14 }, m.answering ? 'term ' + m.term : m.pid ? 'pid ' + m.pid : ''));
    if (DOWN.has(m.state)) {
      g.appendChild(svg('line', { class: 'cross', x1: -16, y1: -16, x2: 16, y2: 16 }));
      g.appendChild(svg('line', { class: 'cross', x1: 16, y1: -16, x2: -16, y2: 16 }));
    }
    if (role === 'leader') {
      g.appendChild(svg('path', { class: 'crown', d: 'M-14,-44 L-14,-56 L-7,-49 L0,-58 L7,-49 L14,-56 L14,-44 Z' }));
    }
    const below = y > cy - radius / 2 || members.length === 1; // the top node's captions go on its side
    const cap = captionOf(m) + (m.partitioned ? ' · partitioned' : '') + (m.delayMillis ? ` · +${m.delayMillis} ms` : '');
    const side = x < cx ? -1 : 1;
    // an inline style, as the stylesheet's text-anchor would win over an attribute
    const anchor = `text-anchor:${side < 0 ? 'end' : 'start'}`;
    const capAt = below ? { y: 62 } : { x: side * 56, y: -4, style: anchor };
    const subAt = below ? { y: 76 } : { x: side * 56, y: 10, style: anchor };
    g.appendChild(svg('text', { class: 'caption', ...capAt }, cap));
    g.appendChild(svg('text', { class: 'subcaption', ...subAt },
      m.answering ? `commit ${m.commitIndex} · applied ${m.appliedIndex}` : ''));
    const title = svg('title', {}, `${m.process} (${m.id || 'id unknown'}): ${cap}`);
    g.appendChild(title);
    root.appendChild(g);
  }
}
