import { API_KEY_HEADER } from '../../../../shared/contracts/define-route';
import { STA_API_ROOT_PATH, STA_ROOT_PATH } from '../../../../shared/contracts/sensor-data-sta';

/**
 * "Use this data" (docs/open-data.md "Use this data", decision 073): the SensorThings URL, where the Parquet comes from
 * and one line of Python and of R that reads it, for a public dataset's landing page and a device page.
 */

/** What a researcher pastes into a notebook. */
export interface NotebookLines {
  python: string;
  r: string;
}

/**
 * The SensorThings root: the guests' one when the data is public (no key needed), else the API key's (the caller's
 * own session token does not travel into a notebook).
 */
export const staRoot = (sensorDataBaseUrl: string, publicData: boolean): string =>
  `${sensorDataBaseUrl.replace(/\/$/, '')}${publicData ? STA_ROOT_PATH : STA_API_ROOT_PATH}`;

/** An OData string literal in a URL: quotes doubled (OData ABNF), the rest percent-encoded where a URL needs it. */
const literal = (id: string) => `'${encodeURIComponent(id.replace(/'/g, "''"))}'`;

/**
 * The Things of the given devices, their Datastreams expanded: one device by id, several through `$filter` on
 * `@iot.id`. Spaces are %20 so the URL can be pasted into R's and Python's readers as it is.
 */
export const staThingsUrl = (root: string, deviceIds: readonly string[]): string => {
  if (deviceIds.length === 1) return `${root}/Things(${literal(deviceIds[0]!)})?$expand=Datastreams`;
  const filter = deviceIds.map((id) => `@iot.id%20eq%20${literal(id)}`).join('%20or%20');
  return `${root}/Things?$filter=${filter}&$expand=Datastreams`;
};

/** A device's Datastreams, each with its latest 1,000 Observations, newest first. */
export const staObservationsUrl = (root: string, deviceId: string): string =>
  `${root}/Things(${literal(deviceId)})/Datastreams?$expand=Observations($orderby=phenomenonTime%20desc;$top=1000)`;

/** Reading a Parquet (or, without one, CSV) file saved from the page: pandas and R's arrow (or base R). */
export const fileLines = (fileName: string): NotebookLines =>
  fileName.endsWith('.parquet')
    ? {
        python: `import pandas as pd; df = pd.read_parquet("${fileName}")`,
        r: `df <- arrow::read_parquet("${fileName}")`,
      }
    : {
        python: `import pandas as pd; df = pd.read_csv("${fileName}")`,
        r: `df <- read.csv("${fileName}")`,
      };

/**
 * Reading a device's Observations straight from the SensorThings URL: a row per Observation with its Datastream's
 * name. Without public data the call carries an API key, which the reader fills in.
 */
export const staLines = (url: string, withKey: boolean): NotebookLines =>
  withKey
    ? {
        python:
          `import pandas as pd, requests; df = pd.json_normalize(requests.get("${url}", ` +
          `headers={"${API_KEY_HEADER}": "ak_…"}).json()["value"], "Observations", ["name"])`,
        r:
          `df <- tidyr::unnest(jsonlite::fromJSON(httr2::resp_body_string(httr2::req_perform(httr2::req_headers(` +
          `httr2::request("${url}"), "${API_KEY_HEADER}" = "ak_…"))))$value, Observations, names_sep = "_")`,
      }
    : {
        python:
          `import pandas as pd, requests; df = pd.json_normalize(requests.get("${url}").json()["value"], ` +
          `"Observations", ["name"])`,
        r: `df <- tidyr::unnest(jsonlite::fromJSON("${url}")$value, Observations, names_sep = "_")`,
      };
