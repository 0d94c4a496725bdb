import { useSignedInUser } from '../../lib/session';

const COMING_LATER = [
  { title: 'Devices', text: 'Your devices, their state and their data.' },
  { title: 'Organizations', text: 'The organizations you belong to and their members.' },
  { title: 'Campaigns', text: 'Measurement campaigns and their devices.' },
];

/** `/dashboard`: who is signed in; the areas' screens join as they are built. */
export const DashboardPage = () => {
  const user = useSignedInUser();
  return (
    <section className="page">
      <h1>Welcome</h1>
      <dl className="facts">
        <dt>Signed in as</dt>
        <dd data-testid="dashboard-email">{user.email ?? user.username}</dd>
        <dt>Groups</dt>
        <dd data-testid="dashboard-groups">
          {user.groups.length ? (
            <ul className="tags">
              {user.groups.map((group) => (
                <li key={group}>{group}</li>
              ))}
            </ul>
          ) : (
            <span className="muted">None</span>
          )}
        </dd>
      </dl>
      <div className="cards">
        {COMING_LATER.map((card) => (
          <article key={card.title} className="card placeholder">
            <h2>{card.title}</h2>
            <p className="muted">{card.text}</p>
            <p className="muted small">Coming later.</p>
          </article>
        ))}
      </div>
    </section>
  );
};
