/* The table and the JSON report. */
#include <stdio.h>

#include "bench.h"
#include "map/map_internal.h" /* rmg__stage_name */

static double per_second(double ms)
{
    return ms > 0 ? 1000.0 / ms : 0;
}

static double tiles_of(const bench_result *r)
{
    return (double)r->width * (double)r->height * (double)r->levels;
}

void bench_print_header(FILE *out)
{
    fprintf(out, "%-14s %-11s %5s %5s %21s %21s %7s %8s %7s %8s %7s\n", "case", "size", "zones", "ok",
            "wall ms med [min..max]", "cpu ms med [min..max]", "maps/s", "floor ms", "ratio", "peak MiB",
            "ns/tile");
}

void bench_print_row(FILE *out, const bench_result *r)
{
    char size[24];
    snprintf(size, sizeof size, "%dx%dx%d", r->width, r->height, r->levels);
    if (r->seeds_ok == 0) {
        fprintf(out, "%-14s FAILED: %s\n", r->name, r->error);
        return;
    }
    double tiles = tiles_of(r);
    fprintf(out, "%-14s %-11s %5d %2d/%-2d %8.1f [%5.0f..%5.0f] %8.1f [%5.0f..%5.0f] %7.2f %8.3f %7.0f %8.1f %7.0f\n",
            r->name, size, r->zones, r->seeds_ok, r->seeds, r->wall_med, r->wall_min, r->wall_max, r->cpu_med,
            r->cpu_min, r->cpu_max, per_second(r->cpu_med), r->floor_ms,
            r->floor_ms > 0 ? r->cpu_med / r->floor_ms : 0, (double)r->peak_bytes / (1024.0 * 1024.0),
            tiles > 0 ? r->cpu_med * 1e6 / tiles : 0);
    fprintf(out, "%-14s   stages ms:", "");
    for (int s = 1; s < RMG_STAGE_COUNT; s++)
        fprintf(out, " %s %.1f", rmg__stage_name((rmg_stage_id)s), r->stage_med[s]);
    fprintf(out, "  (fingerprint on request %.1f, .h3m export %.1f = %.0f%% of generation)", r->fingerprint_med,
            r->h3m_med, r->cpu_med > 0 ? 100.0 * r->h3m_med / r->cpu_med : 0);
    fprintf(out, "  attempts %.2f  template '%s'%s%s\n", r->attempts_mean, r->template_name, r->note[0] ? "  note: " : "",
            r->note);
    if (r->error[0])
        fprintf(out, "%-14s   failed seeds, last: %s\n", "", r->error);
}

/* JSON string body: the few characters that need escaping in names and messages. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_row(FILE *f, const bench_result *r)
{
    fprintf(f, "    {\"name\": ");
    json_string(f, r->name);
    fprintf(f, ", \"template\": ");
    json_string(f, r->template_name);
    fprintf(f, ", \"scaling\": %s, \"width\": %d, \"height\": %d, \"levels\": %d, \"zones\": %d,\n", r->scaling ? "true" : "false",
            r->width, r->height, r->levels, r->zones);
    fprintf(f, "     \"seeds\": %d, \"seeds_ok\": %d, \"attempts_mean\": %.3f, \"fingerprint_seed1\": \"%016llx\",\n",
            r->seeds, r->seeds_ok, r->attempts_mean, (unsigned long long)r->fingerprint_first);
    fprintf(f, "     \"wall_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f},\n", r->wall_med, r->wall_min,
            r->wall_max);
    fprintf(f, "     \"cpu_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f},\n", r->cpu_med, r->cpu_min, r->cpu_max);
    fprintf(f, "     \"stage_ms_median\": {");
    for (int s = 0; s < RMG_STAGE_COUNT; s++)
        fprintf(f, "%s\"%s\": %.3f", s ? ", " : "", rmg__stage_name((rmg_stage_id)s), r->stage_med[s]);
    fprintf(f, "},\n     \"fingerprint_ms_median\": %.3f, \"fingerprint_note\": \"computed on the first request, "
               "not part of rmg_generate\", \"h3m_export_ms_median\": %.3f", r->fingerprint_med, r->h3m_med);
    double tiles = tiles_of(r);
    fprintf(f, ",\n     \"maps_per_second\": %.3f, \"floor_ms\": %.4f, \"ratio_to_floor\": %.1f, \"peak_bytes\": %zu,"
               " \"ns_per_tile\": %.2f,\n     \"note\": ",
            per_second(r->cpu_med), r->floor_ms, r->floor_ms > 0 ? r->cpu_med / r->floor_ms : 0, r->peak_bytes,
            tiles > 0 ? r->cpu_med * 1e6 / tiles : 0);
    json_string(f, r->note);
    fprintf(f, ", \"error\": ");
    json_string(f, r->error);
    fprintf(f, "}");
}

int bench_write_json(const bench_report *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "{\n  \"librmg\": ");
    json_string(f, rmg_version_string());
    fprintf(f, ",\n  \"time_basis\": \"median of per-map times; cpu_ms is process CPU time, maps_per_second and "
               "ratio_to_floor use it\",\n  \"results\": [\n");
    for (size_t i = 0; i < r->count; i++) {
        json_row(f, &r->rows[i]);
        fprintf(f, "%s\n", i + 1 < r->count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}
