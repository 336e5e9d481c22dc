import { render } from 'preact';
import './styles.css';
import { onLinkClick, useLocation } from './router';
import { BecomeProvider } from './pages/BecomeProvider';
import { ChannelPage, ChannelSearch } from './pages/Channels';
import { Console } from './pages/Console';
import { Marketplace } from './pages/Marketplace';
import { MyChannels } from './pages/MyChannels';
import { DashboardElsewhere, NotFound } from './pages/NotFound';
import { ProviderPage } from './pages/ProviderPage';
import { SkillList, SkillPage } from './pages/Skills';

const NAV: [string, string][] = [
  ['/', 'Marketplace'],
  ['/skills', 'Skills'],
  ['/become-a-provider', 'Become a provider'],
  ['/channels', 'Channels'],
  ['/my-channels', 'My channels'],
  ['/console', 'Operator console'],
];

function section(path: string): string {
  if (path === '/' || path.startsWith('/providers/')) return '/';
  return NAV.find(([href]) => href !== '/' && (path === href || path.startsWith(`${href}/`)))?.[0] ?? '';
}

function Page({ path, search }: { path: string; search: string }) {
  if (path === '/') return <Marketplace search={search} />;
  const [, first, second, extra] = path.split('/');
  const param = second ? decodeURIComponent(second) : '';
  if (extra !== undefined) return <NotFound />;
  switch (first) {
    case 'providers': return param ? <ProviderPage id={param} /> : <NotFound />;
    case 'skills': return param ? <SkillPage slug={param} /> : <SkillList />;
    case 'become-a-provider': return param ? <NotFound /> : <BecomeProvider />;
    case 'channels': return param ? <ChannelPage channelId={param} /> : <ChannelSearch />;
    case 'my-channels': return param ? <NotFound /> : <MyChannels />;
    case 'console': return param ? <NotFound /> : <Console />;
    case 'dashboard': return param ? <NotFound /> : <DashboardElsewhere />;
    default: return <NotFound />;
  }
}

function App() {
  const { path, search } = useLocation();
  const current = section(path);
  return (
    <div onClick={(e) => onLinkClick(e as unknown as MouseEvent)}>
      <header class="top">
        <a class="brand" href="/">Chan Ledger</a>
        <nav>
          {NAV.map(([href, label]) => (
            <a href={href} class={current === href ? 'active' : ''} aria-current={current === href ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
      </header>
      <main>
        <Page path={path} search={search} />
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
