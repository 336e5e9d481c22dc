import { useEffect, useState } from 'preact/hooks';
import { errorText, getJson } from '../api';
import { layout, NODE_HEIGHT, NODE_WIDTH } from '../graph';
import { formatTime } from '../shared';
import { roleCovers, type RoleCover } from '../skillRoles';
import type { Directory, DirectoryProvider, SkillDocument, SkillList as SkillListAnswer, SkillStep, SkillSummary } from '../types';

/** The directory, for whether skills' roles are filled; null when it cannot be read (nothing is said then). */
function useDirectory(): DirectoryProvider[] | null {
  const [providers, setProviders] = useState<DirectoryProvider[] | null>(null);
  useEffect(() => {
    getJson<Directory>('/api/directory/providers').then((d) => setProviders(d.providers)).catch(() => setProviders(null));
  }, []);
  return providers;
}

/** A skill's roles no listed provider fills, in words; nothing while the directory is unknown. */
function Unfilled({ covers, testId }: { covers: RoleCover[] | null; testId: string }) {
  const missing = (covers ?? []).filter((c) => c.missing);
  if (missing.length === 0) return null;
  return (
    <div class="warning" role="note" data-testid={testId}>
      <strong>Not every role can be filled now:</strong>
      <ul>{missing.map((c) => <li data-role={c.role}><code>{c.role}</code>: {c.missing}</li>)}</ul>
    </div>
  );
}

export function SkillList() {
  const [skills, setSkills] = useState<SkillSummary[] | null>(null);
  const [documents, setDocuments] = useState<Record<string, SkillDocument>>({});
  const [error, setError] = useState<string | null>(null);
  const directory = useDirectory();
  useEffect(() => {
    getJson<SkillListAnswer>('/api/skills').then((list) => {
      setSkills(list.skills);
      // the list names each skill's roles, not what they need: each skill's document does
      list.skills.forEach((skill) => getJson<SkillDocument>(`/api/skills/${encodeURIComponent(skill.slug)}`)
        .then((doc) => setDocuments((known) => ({ ...known, [skill.slug]: doc }))).catch(() => undefined));
    }).catch((e) => setError(errorText(e)));
  }, []);
  const coversOf = (slug: string) => (directory && documents[slug] ? roleCovers(documents[slug].providers, directory) : null);
  return (
    <section>
      <h1>Skills</h1>
      <p class="lead">Workflows that chain several providers; an agent runs the steps in order and pays each provider over its own channel.</p>
      {error && <p class="error">{error}</p>}
      {skills && skills.length === 0 && <p class="muted">No skill is published yet.</p>}
      {skills && skills.length > 0 && (
        <table>
          <thead><tr><th>Skill</th><th>Description</th><th>Version</th><th>Published</th></tr></thead>
          <tbody>
            {skills.map((s) => (
              <tr data-skill={s.slug}>
                <td><a href={`/skills/${encodeURIComponent(s.slug)}`}>{s.name || s.slug}</a></td>
                <td>{s.description}<Unfilled covers={coversOf(s.slug)} testId="skill-unfilled" /></td>
                <td>{s.version}</td>
                <td>{formatTime(s.publishedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function SkillPage({ slug }: { slug: string }) {
  const [skill, setSkill] = useState<SkillDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const directory = useDirectory();
  useEffect(() => {
    getJson<SkillDocument>(`/api/skills/${encodeURIComponent(slug)}`).then(setSkill).catch((e) => setError(errorText(e)));
  }, [slug]);
  if (error) return <section><h1>Skill {slug}</h1><p class="error" role="alert">{error}</p></section>;
  if (!skill) return <section><h1>Skill {slug}</h1><p>Loading…</p></section>;
  const categoryOf = new Map(skill.providers.map((p) => [p.role, p.category ?? '']));
  const covers = directory ? roleCovers(skill.providers, directory) : null;
  const coverOf = new Map((covers ?? []).map((c) => [c.role, c]));
  return (
    <section>
      <h1>{skill.name || skill.slug}</h1>
      <p class="lead">{skill.description}</p>
      <p class="muted">Version {skill.version}, published {formatTime(skill.publishedAt)} · output: step <code>{skill.output}</code></p>
      <Unfilled covers={covers} testId="skill-unfilled" />
      <SkillGraph steps={skill.steps} output={skill.output} categoryOf={categoryOf}
        unfilled={new Set((covers ?? []).filter((c) => c.missing).map((c) => c.role))} />
      <table>
        <thead><tr><th>Step</th><th>Role</th><th>Provider category</th><th>After</th><th>Template</th></tr></thead>
        <tbody>
          {skill.steps.map((s) => (
            <tr data-step={s.id}>
              <td><code>{s.id}</code></td><td>{s.role}</td><td>{categoryOf.get(s.role) || '—'}</td>
              <td>{s.after.length ? s.after.join(', ') : '—'}</td>
              <td>{s.template ? <pre>{s.template}</pre> : <span class="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Providers</h2>
      <table>
        <thead><tr><th>Role</th><th>Category</th><th>Models</th><th>Deposit (USDC)</th><th>Listed providers</th></tr></thead>
        <tbody>
          {skill.providers.map((p) => {
            const cover = coverOf.get(p.role);
            return (
              <tr data-role={p.role}>
                <td>{p.role}</td><td>{p.category ?? '—'}</td><td>{(p.models ?? []).join(', ')}</td><td>{p.deposit ?? '—'}</td>
                <td data-testid="role-providers">
                  {!cover ? <span class="muted">—</span>
                    : cover.missing ? <span class="error">none: {cover.missing}</span>
                    : cover.providers.map((provider, i) => <>{i > 0 && ', '}<a href={`/providers/${encodeURIComponent(provider.id)}`}>{provider.name}</a></>)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function SkillGraph({ steps, output, categoryOf, unfilled }: {
  steps: SkillStep[]; output: string; categoryOf: Map<string, string>; unfilled: Set<string>;
}) {
  let placed;
  try {
    placed = layout(steps.map((s) => ({ id: s.id, after: s.after ?? [] })));
  } catch (e) {
    return <p class="error">The steps cannot be drawn: {(e as Error).message}</p>;
  }
  const at = new Map(placed.nodes.map((n) => [n.id, n]));
  const roleOf = new Map(steps.map((s) => [s.id, s.role]));
  return (
    <svg class="skill-graph" data-testid="skill-graph" width={placed.width} height={placed.height}
      viewBox={`0 0 ${placed.width} ${placed.height}`} role="img" aria-label="workflow steps and their dependencies">
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#667085" />
        </marker>
      </defs>
      {placed.edges.map((e) => {
        const from = at.get(e.from)!;
        const to = at.get(e.to)!;
        const x1 = from.x + NODE_WIDTH;
        const y1 = from.y + NODE_HEIGHT / 2;
        const x2 = to.x;
        const y2 = to.y + NODE_HEIGHT / 2;
        const mid = (x1 + x2) / 2;
        return <path class="edge" data-edge={`${e.from}->${e.to}`} d={`M ${x1} ${y1} C ${mid} ${y1}, ${mid} ${y2}, ${x2} ${y2}`}
          fill="none" stroke="#667085" stroke-width="1.5" marker-end="url(#arrow)" />;
      })}
      {placed.nodes.map((n) => {
        const role = roleOf.get(n.id) ?? '';
        const missing = unfilled.has(role);
        return (
          <g class={missing ? 'node unfilled' : 'node'} data-node={n.id} transform={`translate(${n.x},${n.y})`}>
            <rect width={NODE_WIDTH} height={NODE_HEIGHT} rx="8" fill={n.id === output ? '#e8efff' : '#fff'}
              stroke={missing ? '#d92d20' : n.id === output ? '#2a5bd7' : '#cfd4dc'} stroke-dasharray={missing ? '5 3' : undefined} />
            <text x="12" y="22" font-weight="600" font-size="14">{n.id}</text>
            <text x="12" y="40" font-size="12" fill="#667085">{role}</text>
            <text x="12" y="55" font-size="11" fill={missing ? '#d92d20' : '#667085'}>
              {categoryOf.get(role) || ''}{missing ? ' · no listed provider' : ''}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
