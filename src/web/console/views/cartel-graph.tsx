import { t, type Lang } from '../../words/index.js';
import type { AnalysisResponse } from '../../../governance/integrity/schemas.js';

type Cluster = AnalysisResponse['clusters'][number];

/** Colours of the clusters: distinguishable, and dark enough for white labels (a legend names them too). */
export const CLUSTER_COLOURS = ['#b3261e', '#0b57d0', '#146c2e', '#8e4585', '#9a5b00', '#006a6a', '#5b5fc7', '#7d5260'];

export const memberAnchor = (clusterId: string, memberId: string) => `m-${clusterId}-${memberId}`.replace(/[^A-Za-z0-9_-]/g, '-');

/** A member's label in the picture: its name, shortened to fit under its circle. */
const short = (name: string) => (name.length > 18 ? `${name.slice(0, 16)}…` : name);

/** How the picture names a member and where its node links to (the finding's page, at that member's evidence). */
export interface GraphLabels {
  nameOf(cluster: Cluster, memberId: string): string;
  hrefOf(cluster: Cluster, memberId: string): string;
}

interface Placed {
  cluster: Cluster;
  colour: string;
  cx: number;
  cy: number;
  nodes: Map<string, { x: number; y: number }>;
}

const CELL = 360;
const RADIUS = 120;

/**
 * Places each flagged cluster in its own cell of a grid and its members on a circle, so one cluster reads as one
 * ring: deterministic (the same analysis draws the same picture), no layout library, no script.
 */
function place(clusters: readonly Cluster[], columns: number, numbers?: readonly number[]): Placed[] {
  return clusters.map((cluster, index) => {
    const cx = (index % columns) * CELL + CELL / 2;
    const cy = Math.floor(index / columns) * CELL + CELL / 2;
    const nodes = new Map<string, { x: number; y: number }>();
    cluster.members.forEach((member, i) => {
      const angle = (2 * Math.PI * i) / cluster.members.length - Math.PI / 2;
      nodes.set(member, { x: cx + RADIUS * Math.cos(angle), y: cy + RADIUS * Math.sin(angle) });
    });
    return { cluster, colour: CLUSTER_COLOURS[(numbers?.[index] ?? index) % CLUSTER_COLOURS.length]!, cx, cy, nodes };
  });
}

/**
 * The co-action graph of the flagged clusters as an SVG: a node per member in its cluster's colour, an edge per
 * pair that acts together far beyond chance (thicker for more acts, an arrow when one acts for the other).
 * Each node is a link to that member's evidence below the picture.
 */
export function CartelGraph(props: { lang: Lang; clusters: readonly Cluster[]; labels: GraphLabels; numbers?: readonly number[] }) {
  const { lang, clusters, labels } = props;
  const columns = Math.min(3, Math.max(1, clusters.length));
  const placed = place(clusters, columns, props.numbers);
  const width = columns * CELL;
  const height = Math.ceil(clusters.length / columns) * CELL;
  const maxCount = Math.max(1, ...clusters.flatMap((c) => c.evidence.edges.map((e) => e.count)));
  return (
    <svg
      class="graph"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="group"
      aria-labelledby="graph-title"
      aria-describedby="graph-desc"
    >
      <title id="graph-title">{t(lang, 'console.integrity.graphTitle')}</title>
      <desc id="graph-desc">{t(lang, 'console.integrity.graphDesc', { count: clusters.length })}</desc>
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="22" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#555" />
        </marker>
      </defs>
      {placed.map(({ cluster, colour, cx, cy, nodes }, index) => (
        <g>
          <circle cx={cx} cy={cy} r={RADIUS + 34} fill={colour} fill-opacity="0.06" stroke={colour} stroke-dasharray="4 4" />
          <text x={cx} y={cy + 5} text-anchor="middle" font-size="15" fill="#333">
            {t(lang, 'console.integrity.clusterN', { n: (props.numbers?.[index] ?? index) + 1 })}
          </text>
          {cluster.evidence.edges.map((edge) => {
            const from = nodes.get(edge.from);
            const to = nodes.get(edge.to);
            if (!from || !to) return null;
            return (
              <line
                x1={from.x}
                y1={from.y}
                x2={to.x}
                y2={to.y}
                stroke="#555"
                stroke-opacity="0.7"
                stroke-width={1 + (5 * edge.count) / maxCount}
                marker-end={edge.directed ? 'url(#arrow)' : undefined}
              >
                <title>
                  {t(lang, 'console.integrity.edge', {
                    from: labels.nameOf(cluster, edge.from),
                    to: labels.nameOf(cluster, edge.to),
                    count: edge.count,
                    expected: edge.expected.toFixed(2),
                  })}
                </title>
              </line>
            );
          })}
          {[...nodes].map(([member, { x, y }]) => (
            <a href={labels.hrefOf(cluster, member)}>
              <title>{t(lang, 'console.integrity.memberLink', { name: labels.nameOf(cluster, member), id: member })}</title>
              <circle cx={x} cy={y} r="16" fill={colour} stroke="#fff" stroke-width="2" />
              <text x={x} y={y + 32} text-anchor="middle" font-size="12" fill="#1a1a1a">
                {short(labels.nameOf(cluster, member))}
              </text>
            </a>
          ))}
        </g>
      ))}
    </svg>
  );
}
