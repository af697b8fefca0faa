#include "report.h"

#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "clgemm_config.h"
#include "cold_l2.h"

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

/* A row that 'all' added and this device cannot run: the table names it in one line instead
 * (a row named by the user, and the CLBlast row, whose reason is the build, always show). */
static bool folded(const run_row *row, bool show_unsupported)
{
    return !show_unsupported && row->status == ROW_UNSUPPORTED && row->listed_by_all &&
           !row->baseline;
}

/* Notes from the library start with the algorithm's name, which the line already shows. */
static const char *note_text(const run_row *row)
{
    size_t n = strlen(row->name);
    if (strncmp(row->note, row->name, n) == 0 && strncmp(row->note + n, ": ", 2) == 0)
        return row->note + n + 2;
    return row->note;
}

/* What the problem line adds when the operands are not the defaults: "; col-major, trans TN,
 * batch 3, ld pad 0, epilogue bias_gelu". */
static void operand_text(const run_result *res, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
#define ADD(...) (n += (size_t)snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__))
    if (res->layout != CLGEMM_ROW_MAJOR)
        ADD("%scol-major", n ? ", " : "; ");
    if (res->op_a != CLGEMM_OP_N || res->op_b != CLGEMM_OP_N)
        ADD("%strans %s", n ? ", " : "; ", trans_name(res->op_a, res->op_b));
    if (res->batch > 1)
        ADD("%sbatch %d", n ? ", " : "; ", res->batch);
    if (res->ld_pad >= 0)
        ADD("%sld pad %d", n ? ", " : "; ", res->ld_pad);
    if (res->cold_l2)
        ADD("%scold L2", n ? ", " : "; ");
    if (res->epilogue != CLGEMM_EPILOGUE_NONE)
        ADD("%sepilogue %s", n ? ", " : "; ", clgemm_epilogue_name(res->epilogue));
#undef ADD
}

static void print_table(FILE *out, const report_entry *r, bool show_unsupported)
{
    const clgemm_device_desc *d = r->dev;
    const run_result *res = &r->result;
    const char *a = res->op_a == CLGEMM_OP_T ? "A^T" : "A";
    const char *b = res->op_b == CLGEMM_OP_T ? "B^T" : "B";
    char operands[128];
    operand_text(res, operands, sizeof operands);
    fprintf(out, "device   %s (%s, %s)\n", d->name, device_type_name(d->type), d->platform_name);
    fprintf(out, "driver   %s; %s\n", d->driver, d->version);
    const char *c_type = res->c_type == CLGEMM_F32 ? "fp32" : clgemm_dtype_name(res->c_type);
    if (res->dtype == CLGEMM_F32 && res->c_type == CLGEMM_F32)
        fprintf(out, "problem  C = %g*%s*%s + %g*C, fp32, M x N x K = %d x %d x %d%s\n", r->alpha,
                a, b, r->beta, res->shape.M, res->shape.N, res->shape.K, operands);
    else
        fprintf(out, "problem  C = %g*%s*%s + %g*C, A and B %s%s, C %s, "
                     "M x N x K = %d x %d x %d%s\n",
                r->alpha, a, b, r->beta,
                res->dtype == CLGEMM_F32 ? "fp32" : clgemm_dtype_name(res->dtype),
                res->dtype == CLGEMM_F32 ? "" : " (rounded on the host)", c_type, res->shape.M,
                res->shape.N, res->shape.K, operands);
    fprintf(out, "check    %s\n\n", res->check_method);
    fprintf(out, "%-24s %11s %11s %11s %10s %10s %-7s %s\n", "algorithm", "median ms", "min ms",
            "GFLOP/s", "vs CLBlast", "error", "prec", "status");
    size_t nfolded = 0;
    for (size_t i = 0; i < res->nrows; i++) {
        const run_row *row = &res->rows[i];
        char med[32], min[32], gf[32], ratio[32], err[32];
        if (folded(row, show_unsupported)) {
            nfolded++;
            continue;
        }
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
    if (nfolded) {
        fprintf(out, "\nskipped (not for this device or this data): ");
        for (size_t i = 0, k = 0; i < res->nrows; i++)
            if (folded(&res->rows[i], show_unsupported))
                fprintf(out, "%s%s", k++ ? ", " : "", res->rows[i].name);
        fprintf(out, " \u2014 --show-unsupported shows why\n");
    }
    bool any_note = false;
    for (size_t i = 0; i < res->nrows; i++) {
        const run_row *row = &res->rows[i];
        if (!row->note[0] || folded(row, show_unsupported))
            continue;
        if (!any_note)
            fprintf(out, "\n");
        any_note = true;
        fprintf(out, "%s: %s%s\n", row->name,
                row->status == ROW_UNSUPPORTED ? "unsupported on this device: " : "",
                note_text(row));
    }
    for (size_t i = 0; i < res->nrows; i++)
        if (res->rows[i].status == ROW_FAIL && !(res->rows[i].error <= res->rows[i].tolerance)) {
            fprintf(out, "\n%s: FAIL: error %.2e above the %s tolerance %.2e\n",
                    res->rows[i].name, res->rows[i].error, res->rows[i].precision,
                    res->rows[i].tolerance);
        }
}

/* Side by side, a row folded on every device is left out (each table has named it). */
static void print_comparison(FILE *out, const report_entry *e, size_t n, bool show_unsupported)
{
    fprintf(out, "GFLOP/s by device (%d x %d x %d)\n", e[0].result.shape.M,
            e[0].result.shape.N, e[0].result.shape.K);
    fprintf(out, "%-24s", "algorithm");
    for (size_t j = 0; j < n; j++)
        fprintf(out, " %14.14s", e[j].dev->name);
    fprintf(out, "\n");
    for (size_t i = 0; i < e[0].result.nrows; i++) {
        bool everywhere = true;
        for (size_t j = 0; j < n && everywhere; j++)
            everywhere = i < e[j].result.nrows && folded(&e[j].result.rows[i], show_unsupported);
        if (everywhere)
            continue;
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
                 "dtype,layout,trans,batch,ld_pad,gbps,l2,c_type,epilogue\n");
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
            const run_result *res = &e[j].result;
            fprintf(out, ",%s,%s,%s,%d,", clgemm_dtype_name(res->dtype), layout_name(res->layout),
                    trans_name(res->op_a, res->op_b), res->batch);
            if (res->ld_pad >= 0) /* empty: the default padding to 32-element multiples */
                fprintf(out, "%d", res->ld_pad);
            csv_num(out, timed ? row->gbps : NAN);
            fprintf(out, ",%s,%s,%s\n", res->cold_l2 ? "cold" : "warm",
                    clgemm_dtype_name(res->c_type), clgemm_epilogue_name(res->epilogue));
        }
}

/* %.6g as the text, as the CSV has it: seventeen digits of a timing median are noise.  Numbers
 * that do not exist (not run, not checked) and infinities are null: JSON has no NaN. */
static json_object *json_number(double v)
{
    if (!isfinite(v))
        return NULL;
    char text[32];
    snprintf(text, sizeof text, "%.6g", v);
    return json_object_new_double_s(v, text);
}

static json_object *json_row(const run_row *row)
{
    json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    bool timed = row->runs > 0;
    json_object_object_add(o, "algorithm", json_object_new_string(row->name));
    json_object_object_add(o, "status", json_object_new_string(row_status_name(row->status)));
    json_object_object_add(o, "ms_median", json_number(timed ? row->ms_median : NAN));
    json_object_object_add(o, "ms_min", json_number(timed ? row->ms_min : NAN));
    json_object_object_add(o, "runs", json_object_new_int(row->runs));
    json_object_object_add(o, "gflops", json_number(timed ? row->gflops : NAN));
    /* bytes of A, B and C (C twice when beta != 0) over the median time */
    json_object_object_add(o, "gbps", json_number(timed ? row->gbps : NAN));
    json_object_object_add(o, "vs_clblast", json_number(row->vs_baseline));
    json_object_object_add(o, "error", json_number(row->error));
    json_object_object_add(o, "tolerance", json_number(row->tolerance));
    json_object_object_add(o, "precision", json_object_new_string(row->precision));
    json_object_object_add(o, "backend", json_object_new_string(row->backend));
    json_object_object_add(o, "build_ms", json_number(row->build_ms));
    if (row->from_cache >= 0)
        json_object_object_add(o, "from_cache", json_object_new_boolean(row->from_cache));
    json_object_object_add(o, "params", json_object_new_string(row->params));
    json_object_object_add(o, "note", json_object_new_string(row->note));
    return o;
}

static json_object *json_result(const report_entry *e)
{
    const clgemm_device_desc *d = e->dev;
    const run_result *res = &e->result;
    json_object *o = json_object_new_object();
    json_object *rows = json_object_new_array();
    if (!o || !rows) {
        json_object_put(o);
        json_object_put(rows);
        return NULL;
    }
    json_object_object_add(o, "device", json_object_new_string(d->name));
    json_object_object_add(o, "platform", json_object_new_string(d->platform_name));
    json_object_object_add(o, "driver", json_object_new_string(d->driver));
    json_object_object_add(o, "device_version", json_object_new_string(d->version));
    json_object_object_add(o, "type", json_object_new_string(device_type_name(d->type)));
    json_object_object_add(o, "M", json_object_new_int(res->shape.M));
    json_object_object_add(o, "N", json_object_new_int(res->shape.N));
    json_object_object_add(o, "K", json_object_new_int(res->shape.K));
    json_object_object_add(o, "alpha", json_number(e->alpha));
    json_object_object_add(o, "beta", json_number(e->beta));
    json_object_object_add(o, "dtype", json_object_new_string(clgemm_dtype_name(res->dtype)));
    /* "data" is the older name of "dtype", kept for readers of earlier results. */
    json_object_object_add(o, "data",
                           json_object_new_string(res->dtype == CLGEMM_F32
                                                      ? "fp32"
                                                      : clgemm_dtype_name(res->dtype)));
    json_object_object_add(o, "layout", json_object_new_string(layout_name(res->layout)));
    json_object_object_add(o, "trans", json_object_new_string(trans_name(res->op_a, res->op_b)));
    json_object_object_add(o, "batch", json_object_new_int(res->batch));
    /* null: the default padding of every line to a multiple of 32 elements */
    json_object_object_add(o, "ld_pad", res->ld_pad >= 0 ? json_object_new_int(res->ld_pad) : NULL);
    json_object_object_add(o, "c_type", json_object_new_string(clgemm_dtype_name(res->c_type)));
    json_object_object_add(o, "epilogue",
                           json_object_new_string(clgemm_epilogue_name(res->epilogue)));
    json_object_object_add(o, "check", json_object_new_string(res->check_method));
    /* "cold": the L2 was evicted before each timed run (--cold-l2) */
    json_object_object_add(o, "l2", json_object_new_string(res->cold_l2 ? "cold" : "warm"));
    /* how: a read leaves clean lines (cold_l2.c); records before 2026-11-27 wrote instead */
    if (res->cold_l2)
        json_object_object_add(o, "l2_eviction", json_object_new_string(cold_l2_method()));
    for (size_t i = 0; i < res->nrows; i++)
        json_object_array_add(rows, json_row(&res->rows[i]));
    json_object_object_add(o, "rows", rows);
    return o;
}

static void print_json(FILE *out, const report_entry *e, size_t n)
{
    json_object *doc = json_object_new_object();
    json_object *results = json_object_new_array();
    const char *text = NULL;
    if (doc && results) {
        json_object_object_add(doc, "clgemm_version", json_object_new_string(CLGEMM_VERSION));
        for (size_t j = 0; j < n; j++)
            json_object_array_add(results, json_result(&e[j]));
        json_object_object_add(doc, "results", results);
        results = NULL;
        /* Device names may hold '/'; "\/" is legal JSON but noise for people who grep. */
        text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
                                                       JSON_C_TO_STRING_SPACED |
                                                       JSON_C_TO_STRING_NOSLASHESCAPE);
    }
    if (text)
        fprintf(out, "%s\n", text);
    else
        fprintf(stderr, "clgemm: out of host memory for the JSON report\n");
    json_object_put(results);
    json_object_put(doc);
}

void report_print(FILE *out, output_format format, const report_entry *entries, size_t n,
                  bool show_unsupported)
{
    if (format == FORMAT_CSV) {
        print_csv(out, entries, n);
    } else if (format == FORMAT_JSON) {
        print_json(out, entries, n);
    } else {
        for (size_t j = 0; j < n; j++) {
            if (j)
                fprintf(out, "\n");
            print_table(out, &entries[j], show_unsupported);
        }
        if (n > 1) {
            fprintf(out, "\n");
            print_comparison(out, entries, n, show_unsupported);
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

