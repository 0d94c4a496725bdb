// Powertools' logger writes through the global console (which tests spy on to read log lines) only in its dev mode;
// in Lambda it has a console of its own. Dev mode also keeps metrics from being printed.
process.env.POWERTOOLS_DEV = 'true';
