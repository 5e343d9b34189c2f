import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

export interface ChartSeries { label: string, values: number[], color: string }

/**
 * A chart drawn by uPlot (a small, maintained canvas charting library):
 * lines over time (`x` in seconds since the epoch), or bars over categories
 * (`categories` names the x positions 0, 1, 2...). Its data is also shown in
 * a table beside it, for screen readers and exact figures.
 */
export function Chart ({ label, x, series, categories, height = 220 }: { label: string, x: number[], series: ChartSeries[], categories?: string[], height?: number }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const bars = categories !== undefined
    const opts: uPlot.Options = {
      width: Math.max(280, element.clientWidth),
      height,
      scales: { x: { time: !bars, ...(bars ? { range: [-0.5, categories.length - 0.5] as [number, number] } : {}) } },
      axes: [
        bars ? { values: (_u, splits) => splits.map((v) => categories[v] ?? ''), splits: () => categories.map((_c, i) => i) } : {},
        {}
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          ...(bars ? { fill: s.color, paths: uPlot.paths.bars?.({ size: [0.6, 80] }), points: { show: false } } : {})
        }))
      ]
    }
    const chart = new uPlot(opts, [x, ...series.map((s) => s.values)], element)
    const resize = (): void => { chart.setSize({ width: Math.max(280, element.clientWidth), height }) }
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      chart.destroy()
    }
  }, [JSON.stringify([x, series, categories]), height])
  return <div class="chart" role="img" aria-label={label} ref={box} />
}
