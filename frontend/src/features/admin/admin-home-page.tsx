import { Link } from 'react-router-dom';

/** `/admin`: the staff area's start page. */
export const AdminHomePage = () => (
  <section className="page">
    <h1>Administration</h1>
    <div className="cards">
      <article className="card">
        <h2>
          <Link to="/admin/parameters">System parameters</Link>
        </h2>
        <p className="muted">Settings the whole platform reads, as JSON values.</p>
      </article>
    </div>
  </section>
);
