#include "report.h"

#include <math.h>
#include <string.h>

#include "clgemm_config.h"

/* Numbers that do not exist (not run, not checked) print as "-" or null, never as 0. */
static void fmt_num(char *buf, size_t n, const char *fmt, double v)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else if (isinf(v))
        snprintf(buf, n, "inf");
    else
        snprintf(buf, n, fmt, v);
}

static void print_table(FILE *out, const report_entry *r)
{
    const clgemm_device_desc *d = r->dev;
    const run_result *res = &r->result;
    fprintf(out, "device   %s (%s, %s)\n", d->name, device_type_name(d->type), d->platform_name);
    fprintf(out, "driver   %s; %s\n", d->driver, d->version);
    if (res->dtype == CLGEMM_F32)
        fprintf(out, "problem  C = %g*A*B + %g*C, fp32, M x N x K = %d x %d x %d\n", r->alpha,
                r->beta, res->shape.M, res->shape.N, res->shape.K);
    else
        fprintf(out, "problem  C = %g*A*B + %g*C, A and B %s (rounded on the host), C fp32, "
                     "M x N x K = %d x %d x %d\n",
                r->alpha, r->beta, clgemm_dtype_name(res->dtype), res->shape.M, res->shape.N,
                res->shape.K);
    fprintf(out, "check    %s\n\n", res->check_method);
    fprintf(out, "%-24s %11s %11s %11s %10s %10s %-7s %s\n", "algorithm", "median ms", "min ms",
            "GFLOP/s", "vs CLBlast", "error", "prec", "status");
    for (size_t i = 0; i < res->nrows; i++) {
        const run_row *row = &res->rows[i];
        char med[32], min[32], gf[32], ratio[32], err[32];
        bool timed = row->runs > 0;
        fmt_num(med, sizeof med, "%.3f", timed ? row->ms_median : NAN);
        fmt_num(min, sizeof min, "%.3f", timed ? row->ms_min : NAN);
        fmt_num(gf, sizeof gf, "%.1f", timed ? row->gflops : NAN);
        fmt_num(ratio, sizeof ratio, "%.2fx", row->vs_baseline);
        fmt_num(err, sizeof err, "%.1e", row->error);
        fprintf(out, "%-24s %11s %11s %11s %10s %10s %-7s %s\n", row->name, med, min, gf,
                ratio, err, row->precision[0] ? row->precision : "-",
                row_status_name(row->status));
    }
    bool any_note = false;
    for (size_t i = 0; i < res->nrows; i++) {
        const run_row *row = &res->rows[i];
        if (!row->note[0])
            continue;
        if (!any_note)
            fprintf(out, "\n");
        any_note = true;
        fprintf(out, "%s: %s%s\n", row->name,
                row->status == ROW_UNSUPPORTED ? "unsupported on this device: " : "",
                row->note);
    }
    for (size_t i = 0; i < res->nrows; i++)
        if (res->rows[i].status == ROW_FAIL) {
            fprintf(out, "\n%s: FAIL: error %.2e above the %s tolerance %.2e\n",
                    res->rows[i].name, res->rows[i].error, res->rows[i].precision,
                    res->rows[i].tolerance);
        }
}

static void print_comparison(FILE *out, const report_entry *e, size_t n)
{
    fprintf(out, "GFLOP/s by device (%d x %d x %d)\n", e[0].result.shape.M,
            e[0].result.shape.N, e[0].result.shape.K);
    fprintf(out, "%-24s", "algorithm");
    for (size_t j = 0; j < n; j++)
        fprintf(out, " %14.14s", e[j].dev->name);
    fprintf(out, "\n");
    for (size_t i = 0; i < e[0].result.nrows; i++) {
        fprintf(out, "%-24s", e[0].result.rows[i].name);
        for (size_t j = 0; j < n; j++) {
            const run_row *row = i < e[j].result.nrows ? &e[j].result.rows[i] : NULL;
            char gf[32];
            if (row && row->runs > 0 &&
                (row->status == ROW_OK || row->status == ROW_UNCHECKED))
                fmt_num(gf, sizeof gf, "%.1f", row->gflops);
            else
                snprintf(gf, sizeof gf, "%s", row ? row_status_name(row->status) : "-");
            fprintf(out, " %14s", gf);
        }
        fprintf(out, "\n");
    }
}

static void csv_field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\n") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void csv_num(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.6g", v);
    else
        fprintf(out, ",%s", isnan(v) ? "" : "inf");
}

static void print_csv(FILE *out, const report_entry *e, size_t n)
{
    fprintf(out, "device,platform,driver,M,N,K,algorithm,status,ms_median,ms_min,runs,gflops,"
                 "vs_clblast,error,tolerance,precision,backend,build_ms,from_cache,params,note,"
                 "dtype\n");
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < e[j].result.nrows; i++) {
            const run_row *row = &e[j].result.rows[i];
            bool timed = row->runs > 0;
            csv_field(out, e[j].dev->name);
            fputc(',', out);
            csv_field(out, e[j].dev->platform_name);
            fputc(',', out);
            csv_field(out, e[j].dev->driver);
            fprintf(out, ",%d,%d,%d,", e[j].result.shape.M, e[j].result.shape.N,
                    e[j].result.shape.K);
            csv_field(out, row->name);
            fputc(',', out);
            csv_field(out, row_status_name(row->status));
            csv_num(out, timed ? row->ms_median : NAN);
            csv_num(out, timed ? row->ms_min : NAN);
            fprintf(out, ",%d", row->runs);
            csv_num(out, timed ? row->gflops : NAN);
            csv_num(out, row->vs_baseline);
            csv_num(out, row->error);
            csv_num(out, row->tolerance);
            fputc(',', out);
            csv_field(out, row->precision);
            fputc(',', out);
            csv_field(out, row->backend);
            csv_num(out, row->build_ms);
            fprintf(out, ",%s", row->from_cache < 0 ? "" : row->from_cache ? "1" : "0");
            fputc(',', out);
            csv_field(out, row->params);
            fputc(',', out);
            csv_field(out, row->note);
            fprintf(out, ",%s\n", clgemm_dtype_name(e[j].result.dtype));
        }
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void json_num(FILE *out, const char *key, double v)
{
    fprintf(out, ", \"%s\": ", key);
    if (isfinite(v))
        fprintf(out, "%.6g", v);
    else
        fprintf(out, "null");
}

static void print_json(FILE *out, const report_entry *e, size_t n)
{
    fprintf(out, "{\"clgemm_version\": \"%s\", \"results\": [", CLGEMM_VERSION);
    for (size_t j = 0; j < n; j++) {
        const clgemm_device_desc *d = e[j].dev;
        const run_result *res = &e[j].result;
        fprintf(out, "%s\n  {\"device\": ", j ? "," : "");
        json_string(out, d->name);
        fprintf(out, ", \"platform\": ");
        json_string(out, d->platform_name);
        fprintf(out, ", \"driver\": ");
        json_string(out, d->driver);
        fprintf(out, ", \"device_version\": ");
        json_string(out, d->version);
        fprintf(out, ", \"type\": \"%s\", \"M\": %d, \"N\": %d, \"K\": %d", device_type_name(d->type),
                res->shape.M, res->shape.N, res->shape.K);
        json_num(out, "alpha", e[j].alpha);
        json_num(out, "beta", e[j].beta);
        /* "data" is the older name of "dtype", kept for readers of earlier results. */
        fprintf(out, ", \"dtype\": \"%s\", \"data\": \"%s\", \"check\": ",
                clgemm_dtype_name(res->dtype),
                res->dtype == CLGEMM_F32 ? "fp32" : clgemm_dtype_name(res->dtype));
        json_string(out, res->check_method);
        fprintf(out, ", \"rows\": [");
        for (size_t i = 0; i < res->nrows; i++) {
            const run_row *row = &res->rows[i];
            bool timed = row->runs > 0;
            fprintf(out, "%s\n    {\"algorithm\": ", i ? "," : "");
            json_string(out, row->name);
            fprintf(out, ", \"status\": ");
            json_string(out, row_status_name(row->status));
            json_num(out, "ms_median", timed ? row->ms_median : NAN);
            json_num(out, "ms_min", timed ? row->ms_min : NAN);
            fprintf(out, ", \"runs\": %d", row->runs);
            json_num(out, "gflops", timed ? row->gflops : NAN);
            json_num(out, "vs_clblast", row->vs_baseline);
            json_num(out, "error", row->error);
            json_num(out, "tolerance", row->tolerance);
            fprintf(out, ", \"precision\": ");
            json_string(out, row->precision);
            fprintf(out, ", \"backend\": ");
            json_string(out, row->backend);
            json_num(out, "build_ms", row->build_ms);
            if (row->from_cache >= 0)
                fprintf(out, ", \"from_cache\": %s", row->from_cache ? "true" : "false");
            fprintf(out, ", \"params\": ");
            json_string(out, row->params);
            fprintf(out, ", \"note\": ");
            json_string(out, row->note);
            fprintf(out, "}");
        }
        fprintf(out, "\n  ]}");
    }
    fprintf(out, "\n]}\n");
}

void report_print(FILE *out, output_format format, const report_entry *entries, size_t n)
{
    if (format == FORMAT_CSV) {
        print_csv(out, entries, n);
    } else if (format == FORMAT_JSON) {
        print_json(out, entries, n);
    } else {
        for (size_t j = 0; j < n; j++) {
            if (j)
                fprintf(out, "\n");
            print_table(out, &entries[j]);
        }
        if (n > 1) {
            fprintf(out, "\n");
            print_comparison(out, entries, n);
        }
    }
}

const char *device_type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (type & CL_DEVICE_TYPE_CPU)
        return "CPU";
    if (type & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    return "other";
}

void report_list_devices(FILE *out, const clgemm_device_desc *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const clgemm_device_desc *d = &list[i];
        fprintf(out,
                "%zu  %u:%u  %-11s %s | %s | %s | %u CUs, %.0f MiB, max alloc %.0f MiB, "
                "%.0f KiB local",
                i, d->platform_index, d->device_index, device_type_name(d->type), d->name,
                d->platform_name, d->version, d->compute_units, d->global_mem / 1048576.0,
                d->max_alloc / 1048576.0, d->local_mem / 1024.0);
        if (d->nv_cc_major >= 0)
            fprintf(out, ", sm_%d%d", d->nv_cc_major, d->nv_cc_minor);
        fprintf(out, "\n");
    }
}

void report_list_algos(FILE *out)
{
    for (size_t i = 0; i < clgemm_algorithm_count(); i++)
        fprintf(out, "%-24s %s\n", clgemm_algorithm(i)->name, clgemm_algorithm(i)->summary);
    fprintf(out, "%-24s %s\n", AUTO_NAME,
            "the fastest tuned algorithm for the device and size (tools/tune.py)");
    fprintf(out, "%-24s %s\n", BASELINE_NAME,
            "CLBlast SGEMM with its default parameters (the baseline)");
}
