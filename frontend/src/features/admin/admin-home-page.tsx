import { Link } from 'react-router-dom';

/** `/admin`: the staff area's start page. */
export const AdminHomePage = () => (
  <section className="page">
    <h1 data-page-title="Overview">Administration</h1>
    <div className="cards">
      <article className="card">
        <h2>
          <Link to="/admin/devices" data-testid="admin-devices-link">
            Devices
          </Link>
        </h2>
        <p className="muted">Every device by product line, registration with its claim code, and the map of all.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/organizations" data-testid="admin-organizations-link">
            Organizations
          </Link>
        </h2>
        <p className="muted">Every organization, its members, devices, campaigns and logo.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/campaigns" data-testid="admin-campaigns-link">
            Campaigns
          </Link>
        </h2>
        <p className="muted">Every campaign with its window and status.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/releases" data-testid="admin-releases-link">
            Releases
          </Link>
        </h2>
        <p className="muted">
          Firmware per product line: artifacts checked by SHA-256, test runs, and rollouts gated on a passing test.
        </p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/people" data-testid="admin-people-link">
            People
          </Link>
        </h2>
        <p className="muted">
          Find people by e-mail, name or group; disable, reset, sign out, change groups, queue deletions.
        </p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/notifications" data-testid="admin-notifications-link">
            Notifications
          </Link>
        </h2>
        <p className="muted">Compose banners and e-mails to people, relations or roles, and follow their delivery.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/alerts" data-testid="admin-alerts-link">
            Alerts
          </Link>
        </h2>
        <p className="muted">What fires now on every device, and every device’s recent alerts, with acknowledge.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/tiers" data-testid="admin-tiers-link">
            Tier features
          </Link>
        </h2>
        <p className="muted">What each tier of each product line gives: history, downloads and the API.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/parameters">System parameters</Link>
        </h2>
        <p className="muted">Settings the whole platform reads, as JSON values.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/migrations" data-testid="admin-migrations-link">
            Migrations
          </Link>
        </h2>
        <p className="muted">Versioned changes to stored data: which ran, when, by whom and with what result.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/audit" data-testid="admin-audit-link">
            Audit log
          </Link>
        </h2>
        <p className="muted">
          Every staff action: who did it, what, on what, when and what it changed (Administrators).
        </p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/relations">Relations</Link>
        </h2>
        <p className="muted">Who belongs to which device, organization and campaign, and in which role.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/cache" data-testid="admin-cache-link">
            Cache
          </Link>
        </h2>
        <p className="muted">Each device's chart-data files: see them, rebuild them from the readings, evict them.</p>
      </article>
      <article className="card">
        <h2>
          <Link to="/admin/lookup" data-testid="admin-lookup-link">
            Look up items
          </Link>
        </h2>
        <p className="muted">Stored records by key, from the tables staff may read, never with their secrets.</p>
      </article>
    </div>
  </section>
);
