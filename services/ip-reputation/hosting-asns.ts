/**
 * Networks of cloud and hosting providers: traffic from them is servers, not people, which is what most
 * reputation users want to know (sign-up abuse, scraping, credential stuffing all run from rented machines).
 * Curated from the providers' published AS numbers; an ASN database entry whose organization reads like a
 * hosting company counts too (see `isHostingOrg`).
 */
export const HOSTING_ASNS: ReadonlyMap<number, string> = new Map([
  [16509, 'Amazon Web Services'],
  [14618, 'Amazon Web Services'],
  [8987, 'Amazon Web Services'],
  [396982, 'Google Cloud'],
  [15169, 'Google'],
  [19527, 'Google Cloud'],
  [8075, 'Microsoft Azure'],
  [14061, 'DigitalOcean'],
  [16276, 'OVHcloud'],
  [24940, 'Hetzner'],
  [213230, 'Hetzner Cloud'],
  [63949, 'Akamai Connected Cloud (Linode)'],
  [20473, 'Vultr (Choopa)'],
  [45102, 'Alibaba Cloud'],
  [37963, 'Alibaba Cloud'],
  [31898, 'Oracle Cloud'],
  [13335, 'Cloudflare'],
  [132203, 'Tencent Cloud'],
  [45090, 'Tencent Cloud'],
  [12876, 'Scaleway'],
  [51167, 'Contabo'],
  [197540, 'netcup'],
  [36352, 'ColoCrossing'],
  [46606, 'Unified Layer'],
  [26496, 'GoDaddy'],
  [40676, 'Psychz Networks'],
  [9009, 'M247'],
  [60068, 'Datacamp (CDN77)'],
  [62240, 'Clouvider'],
  [53667, 'FranTech (BuyVM)'],
  [8100, 'QuadraNet'],
  [29802, 'HIVELOCITY'],
  [32097, 'WholeSale Internet'],
  [35916, 'MULTACOM'],
  [202425, 'IP Volume'],
  [9370, 'Sakura Internet'],
  [7506, 'GMO Internet'],
  [136907, 'Huawei Cloud'],
  [55990, 'Huawei Cloud'],
  [20940, 'Akamai'],
  [54113, 'Fastly'],
  [398101, 'GoDaddy'],
  [22612, 'Namecheap'],
  [47583, 'Hostinger'],
  [204915, 'Hostinger'],
]);

const HOSTING_WORDS =
  /\b(hosting|host|datacent(er|re)|data cent(er|re)|server|servers|cloud|vps|colo(cation)?)\b/i;

export const isHostingOrg = (org: string | null): boolean => org !== null && HOSTING_WORDS.test(org);

export const isHostingAsn = (asn: number | null, org: string | null): boolean =>
  (asn !== null && HOSTING_ASNS.has(asn)) || isHostingOrg(org);
