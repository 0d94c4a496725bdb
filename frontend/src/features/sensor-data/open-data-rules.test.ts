import { fileLines, staLines, staObservationsUrl, staRoot, staThingsUrl } from './open-data-rules';

describe('"Use this data" rules', () => {
  it("takes the guests' root for public data and the API key's otherwise", () => {
    expect(staRoot('http://localhost:3000/sensor-data/', true)).toBe('http://localhost:3000/sensor-data/sta/v1.1');
    expect(staRoot('https://api.example.com/sensor-data', false)).toBe(
      'https://api.example.com/sensor-data/v1/sta/v1.1',
    );
  });

  it('names one Thing by id and several through $filter on @iot.id, quotes doubled and spaces encoded', () => {
    const root = 'http://h/sensor-data/sta/v1.1';
    expect(staThingsUrl(root, ['dev-1'])).toBe("http://h/sensor-data/sta/v1.1/Things('dev-1')?$expand=Datastreams");
    expect(staThingsUrl(root, ["o'hara", 'b c'])).toBe(
      "http://h/sensor-data/sta/v1.1/Things?$filter=@iot.id%20eq%20'o''hara'%20or%20@iot.id%20eq%20'b%20c'" +
        '&$expand=Datastreams',
    );
    expect(staObservationsUrl(root, 'dev-1')).toBe(
      "http://h/sensor-data/sta/v1.1/Things('dev-1')/Datastreams" +
        '?$expand=Observations($orderby=phenomenonTime%20desc;$top=1000)',
    );
  });

  it('reads a Parquet file with pandas and arrow, a CSV one with read_csv', () => {
    expect(fileLines('dev-1.parquet')).toEqual({
      python: 'import pandas as pd; df = pd.read_parquet("dev-1.parquet")',
      r: 'df <- arrow::read_parquet("dev-1.parquet")',
    });
    expect(fileLines('dev-1.csv')).toEqual({
      python: 'import pandas as pd; df = pd.read_csv("dev-1.csv")',
      r: 'df <- read.csv("dev-1.csv")',
    });
  });

  it('sends the key header only where the data is not public', () => {
    const open = staLines('http://h/x', false);
    expect(open.python).toBe(
      'import pandas as pd, requests; df = pd.json_normalize(requests.get("http://h/x").json()["value"], ' +
        '"Observations", ["name"])',
    );
    expect(open.r).toBe('df <- tidyr::unnest(jsonlite::fromJSON("http://h/x")$value, Observations, names_sep = "_")');
    const keyed = staLines('http://h/x', true);
    expect(keyed.python).toContain('headers={"x-api-key": "ak_…"}');
    expect(keyed.r).toContain('"x-api-key" = "ak_…"');
  });
});
