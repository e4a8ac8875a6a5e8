import { describe, expect, it } from 'vitest';
import { cityFields, countryNameOf, NO_CITY, timezoneAt } from './city-record.js';

describe('cityFields: the DB-IP layout of ip-location-db', () => {
  const dbip = {
    city: 'Mountain View',
    country_code: 'US',
    latitude: 37.422000885009766,
    longitude: -122.08499908447266,
    postcode: '',
    state1: 'California',
    state2: '',
    timezone: '',
  };

  it('maps the flat record; the country name from CLDR, the time zone from the coordinates', () => {
    expect(cityFields(dbip)).toEqual({
      country: 'US',
      countryName: 'United States',
      region: 'California',
      city: 'Mountain View',
      latitude: 37.422,
      longitude: -122.085,
      timezone: 'America/Los_Angeles',
    });
  });

  it('keeps a time zone the record has', () => {
    expect(cityFields({ ...dbip, timezone: 'America/Denver' }).timezone).toBe('America/Denver');
  });

  it('"" and (0, 0) are unknown; ZZ is no country; lower case is normalized', () => {
    expect(
      cityFields({ ...dbip, city: '', state1: ' ', country_code: 'ZZ', latitude: 0, longitude: 0 }),
    ).toEqual(NO_CITY);
    expect(cityFields({ ...dbip, country_code: 'nl' })).toMatchObject({
      country: 'NL',
      countryName: 'Netherlands',
    });
  });

  it('coordinates out of range or not numbers are dropped together', () => {
    expect(cityFields({ ...dbip, latitude: 91 })).toMatchObject({
      latitude: null,
      longitude: null,
      timezone: null,
    });
    expect(cityFields({ ...dbip, longitude: 'x' })).toMatchObject({ latitude: null, longitude: null });
    expect(cityFields({ ...dbip, latitude: -0.00001, longitude: 0.5 })).toMatchObject({
      latitude: 0,
      longitude: 0.5,
    });
    expect(Object.is(cityFields({ ...dbip, latitude: -0.00001, longitude: 0.5 }).latitude, -0)).toBe(false);
  });
});

describe('cityFields: the GeoIP2 layout', () => {
  const geoip2 = {
    city: { geoname_id: 2643743, names: { en: 'London', de: 'London' } },
    continent: { code: 'EU', geoname_id: 6255148, names: { en: 'Europe' } },
    country: { geoname_id: 2635167, iso_code: 'GB', names: { en: 'United Kingdom', fr: 'Royaume-Uni' } },
    location: { accuracy_radius: 10, latitude: 51.5142, longitude: -0.0931, time_zone: 'Europe/London' },
    registered_country: { geoname_id: 2635167, iso_code: 'GB', names: { en: 'United Kingdom' } },
    subdivisions: [{ geoname_id: 6269131, iso_code: 'ENG', names: { en: 'England' } }],
  };

  it('maps country, first subdivision, city and location in English', () => {
    expect(cityFields(geoip2)).toEqual({
      country: 'GB',
      countryName: 'United Kingdom',
      region: 'England',
      city: 'London',
      latitude: 51.5142,
      longitude: -0.0931,
      timezone: 'Europe/London',
    });
  });

  it('a Country database (no city, no location) still gives the country', () => {
    expect(cityFields({ country: geoip2.country })).toEqual({
      ...NO_CITY,
      country: 'GB',
      countryName: 'United Kingdom',
    });
  });

  it('falls back to the registered country, and to any language when English is missing', () => {
    expect(
      cityFields({
        registered_country: { iso_code: 'DE', names: { de: 'Deutschland' } },
        city: { names: { fr: 'Berlin-Est' } },
      }),
    ).toMatchObject({ country: 'DE', countryName: 'Deutschland', city: 'Berlin-Est' });
  });

  it('nothing usable: every field null', () => {
    expect(cityFields(null)).toEqual(NO_CITY);
    expect(cityFields({})).toEqual(NO_CITY);
    expect(cityFields([1, 2])).toEqual(NO_CITY);
  });
});

describe('helpers', () => {
  it('countryNameOf: CLDR English names; unknown codes have none', () => {
    expect(countryNameOf('DE')).toBe('Germany');
    expect(countryNameOf('XK')).toBe('Kosovo');
    expect(countryNameOf('QQ')).toBeNull();
  });

  it('timezoneAt: IANA zones from coordinates; invalid coordinates have none', () => {
    expect(timezoneAt(52.3717, 4.8852)).toBe('Europe/Amsterdam');
    expect(timezoneAt(-33.8688, 151.209)).toBe('Australia/Sydney');
    expect(timezoneAt(Number.NaN, 0)).toBeNull();
  });
});
