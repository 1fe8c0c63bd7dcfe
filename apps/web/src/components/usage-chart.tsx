'use client';

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { TUsageBar } from '@/lib/usage-view';

/**
 * Requests per UTC day or per hour as stacked bars (the page labels them and names the chart): successes, client errors, rate-limited and server errors.
 * Each series has its own fill pattern (solid, hatched, dotted, cross-hatched) and a legend in
 * words, so the chart reads without colour; the same numbers are in the table under it, rendered
 * on the server. The only module that imports recharts: the portal's usage page alone loads it.
 * Its frame has a fixed aspect ratio (styles/portal.css), so nothing moves when it draws.
 */
const SERIES = [
  { key: 'success', name: 'Succeeded (2xx, 3xx)', fill: 'url(#usage-solid)' },
  { key: 'clientError', name: 'Client errors (4xx)', fill: 'url(#usage-hatch)' },
  { key: 'limited', name: 'Rate-limited (429)', fill: 'url(#usage-dots)' },
  { key: 'serverError', name: 'Server errors (5xx)', fill: 'url(#usage-cross)' },
] as const;

export const UsageChart = ({ bars, title }: { bars: TUsageBar[]; title: string }) => (
  <div className="usage-chart">
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={bars} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} title={title}>
        <defs>
          <pattern id="usage-solid" width="6" height="6" patternUnits="userSpaceOnUse">
            <rect width="6" height="6" fill="#9c4221" />
          </pattern>
          <pattern
            id="usage-hatch"
            width="6"
            height="6"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width="6" height="6" fill="#fcefd4" />
            <line x1="0" y1="0" x2="0" y2="6" stroke="#6e4300" strokeWidth="3" />
          </pattern>
          <pattern id="usage-dots" width="6" height="6" patternUnits="userSpaceOnUse">
            <rect width="6" height="6" fill="#ece8f4" />
            <circle cx="3" cy="3" r="1.6" fill="#47396c" />
          </pattern>
          <pattern id="usage-cross" width="6" height="6" patternUnits="userSpaceOnUse">
            <rect width="6" height="6" fill="#fcebea" />
            <path d="M0 0L6 6M6 0L0 6" stroke="#a4262c" strokeWidth="1.2" />
          </pattern>
        </defs>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
        <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={48} />
        <Tooltip />
        <Legend />
        {SERIES.map((series) => (
          <Bar
            key={series.key}
            dataKey={series.key}
            name={series.name}
            stackId="requests"
            fill={series.fill}
            stroke="#2a2420"
            strokeWidth={0.5}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  </div>
);
