// SPDX-License-Identifier: GPL-2.0-only
/*
 * Just enough ACPI for timing, reset, the processors and NUMA: the root
 * tables, the FADT (PM timer, reset register), the HPET table, the MADT,
 * the SRAT and the SLIT.  Every table's checksum is verified; a table that
 * fails is listed and not used.
 */
#include "arch/x86_64/paging.h"
#include "kernel/acpi.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/main.h"
#include "kernel/mm/vmem.h"
#include "lib/format.h"
#include "lib/string.h"
#include "lib/unaligned.h"

struct acpi_info acpi;

struct sdt_header {
	char sig[4];
	u32 length;
	u8 revision, checksum;
	char oem[6], oem_table[8];
	u32 oem_rev, creator, creator_rev;
} __packed;

/* The signatures of the tables a bad checksum kept out, to say why. */
static char bad_sigs[8][4];

static bool checksum_ok(const void *p, u32 len)
{
	const u8 *b = p;
	u8 sum = 0;

	for (u32 i = 0; i < len; i++)
		sum += b[i];
	return sum == 0;
}

static const struct sdt_header *map_table(u64 pa)
{
	const struct sdt_header *h = ioremap(pa, sizeof(*h), false);

	if (!h || h->length < sizeof(*h) || h->length > 16 * MiB)
		return NULL;
	return ioremap(pa, h->length, false);
}

static const u8 *find_rsdp_in_bios(void)
{
	const u8 *p = ioremap(0xe0000, 0x20000, false);

	for (u32 off = 0; p && off < 0x20000; off += 16)
		if (memcmp(p + off, "RSD PTR ", 8) == 0 && checksum_ok(p + off, 20))
			return p + off;
	return NULL;
}

/*
 * A table hugezero needs memory to read and cannot get: the boot ends
 * (rc 3) rather than going on without it.
 */
static __noreturn void no_memory(const char *what, u32 n, u64 bytes)
{
	printk("hugezero: FATAL: acpi: no memory for %s (%u entries, %llu "
	       "bytes): the boot ends\n", what, n, (unsigned long long)bytes);
	finish(RC_FATAL);
}

/* Room for @n entries of @size bytes, from boot_table_alloc(); none for 0. */
static void *table_room(const char *what, u32 n, u64 size)
{
	void *p;

	if (!n)
		return NULL;
	p = boot_table_alloc((u64)n * size);
	if (!p)
		no_memory(what, n, (u64)n * size);
	return p;
}

static void add_table(u64 pa)
{
	const struct sdt_header *h = map_table(pa);
	struct acpi_table *t = &acpi.tables[acpi.ntables];

	if (!h) {
		printk("hugezero: acpi: the table at %#llx is unmappable or its "
		       "length implausible; not used\n", (unsigned long long)pa);
		return;
	}
	if (!checksum_ok(h, h->length)) {
		printk("hugezero: acpi: %.4s at %#llx has a bad checksum; "
		       "not used\n", h->sig, (unsigned long long)pa);
		if (acpi.bad_checksums < ARRAY_SIZE(bad_sigs))
			memcpy(bad_sigs[acpi.bad_checksums], h->sig, 4);
		acpi.bad_checksums++;
		return;
	}
	memcpy(t->sig, h->sig, 4);
	t->sig[4] = '\0';
	t->pa = pa;
	t->map = h;
	acpi.ntables++;
}

static void walk_root(u64 pa, u32 entry_size)
{
	const struct sdt_header *root = map_table(pa);
	u32 n;

	if (!root || !checksum_ok(root, root->length)) {
		printk("hugezero: acpi: root table at %#llx unreadable or bad "
		       "checksum\n", (unsigned long long)pa);
		return;
	}
	n = (root->length - sizeof(*root)) / entry_size;
	acpi.nroot = n;
	if (!n)
		return;
	/* As many as the root lists: no table goes unread for want of room. */
	acpi.tables = table_room("the root table's list", n,
				 sizeof(*acpi.tables));
	for (u32 i = 0; i < n; i++) {
		const u8 *e = (const u8 *)(root + 1) + i * entry_size;
		u64 t = entry_size == 8 ? get_unaligned_le64(e) :
			get_unaligned_le32(e);

		add_table(t);
	}
	printk("acpi: %.4s lists %u table%s, %u used\n", root->sig, n,
	       n == 1 ? "" : "s", acpi.ntables);
}

const void *acpi_find(const char *sig)
{
	for (u32 i = 0; i < acpi.ntables; i++)
		if (memcmp(acpi.tables[i].sig, sig, 4) == 0)
			return acpi.tables[i].map;
	return NULL;
}

/* Was a table @sig there, but kept out by its checksum? */
static bool acpi_bad(const char *sig)
{
	for (u32 i = 0; i < acpi.bad_checksums && i < ARRAY_SIZE(bad_sigs); i++)
		if (memcmp(bad_sigs[i], sig, 4) == 0)
			return true;
	return false;
}

static void parse_fadt(void)
{
	const u8 *f = acpi_find("FACP");
	u32 len;

	if (!f)
		return;
	len = ((const struct sdt_header *)f)->length;
	acpi.pm_timer_port = (u16)*(const u32 *)(f + 76);
	acpi.pm_timer_32bit = len > 112 && (*(const u32 *)(f + 112) & (1u << 8));
	/* X_PM_TMR_BLK (ACPI 2.0+) wins when it names an I/O port. */
	if (len >= 220) {
		const struct acpi_gas *x = (const struct acpi_gas *)(f + 208);

		if (x->space == 1 && x->address && x->address < 0x10000)
			acpi.pm_timer_port = (u16)x->address;
	}
	if (len >= 129 && (*(const u32 *)(f + 112) & (1u << 10))) {
		memcpy(&acpi.reset_reg, f + 116, sizeof(acpi.reset_reg));
		acpi.reset_value = f[128];
		acpi.has_reset = acpi.reset_reg.address != 0;
	}
}

static void parse_hpet(void)
{
	const u8 *h = acpi_find("HPET");

	if (h && ((const struct sdt_header *)h)->length >= 56 &&
	    ((const struct acpi_gas *)(h + 40))->space == 0)
		acpi.hpet_base = ((const struct acpi_gas *)(h + 40))->address;
}

/* "0,2(off),5(x),...": the first APIC IDs, as many as fit (madt_line()
 * in tests/qemu_cases.py reads it). */
static void describe_ids(const struct madt *m, char *buf, size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (u32 i = 0; i < m->ncpus; i++) {
		if (pos + 24 >= size) {	/* the count is on the line */
			ksnprintf(buf + pos, size - pos, ",...");
			return;
		}
		pos += (size_t)ksnprintf(buf + pos, size - pos, "%s%u%s",
					 i ? "," : "", m->cpu[i].apic_id,
					 m->cpu[i].enabled ? "" :
					 m->cpu[i].online_capable ? "(off)" : "(x)");
	}
}

/* The processors, for bringing up the others (and for saying how many). */
static void parse_madt(void)
{
	const struct sdt_header *h = acpi_find("APIC");
	const struct madt *m = &acpi.madt;
	struct madt_cpu *cpu;
	char ids[160];
	u32 n;

	if (!h) {
		printk("acpi: no MADT: one CPU (the one running)\n");
		return;
	}
	n = madt_processor_entries(h, h->length);
	cpu = table_room("the MADT's processors", n, sizeof(*cpu));
	if (!madt_parse(h, h->length, &acpi.madt, cpu, n)) {
		printk("acpi: MADT of %u bytes unreadable: one CPU\n", h->length);
		return;
	}
	acpi.has_madt = true;
	describe_ids(m, ids, sizeof(ids));
	printk("acpi: MADT: %u processor%s, %u enabled, APIC IDs %s; local "
	       "APIC at %#llx%s%s\n", m->ncpus, m->ncpus == 1 ? "" : "s",
	       m->nenabled, ids, (unsigned long long)m->lapic_base,
	       m->bad ? "; a malformed entry ended the list" : "",
	       m->invalid_id ? "; entries with the invalid APIC ID 0xff or "
			       "0xffffffff ignored" : "");
	if (m->x2apic_low)
		printk("acpi: MADT: %u x2APIC entr%s with an APIC ID below 0xff "
		       "ignored beside the local APIC entries (as Linux's "
		       "acpi_parse_x2apic())\n", m->x2apic_low,
		       m->x2apic_low == 1 ? "y" : "ies");
}

/* "node 0: [0x0, 0xa0000) [0x100000, ...); node 1: ...", cut to fit. */
static void describe_ranges(const struct srat *s, char *buf, size_t size)
{
	size_t pos = 0;
	u32 shown = 0;

	strlcpy(buf, "no memory", size);
	for (u32 n = 0; n < s->nnodes; n++) {
		const struct mem_node_range *r;
		u32 i = 0;

		for (u32 k = 0; (r = srat_next_range(s, n, &i)); k++, shown++) {
			if (pos + 80 > size) {
				ksnprintf(buf + pos, size - pos, " and %u more",
					  s->nmem - shown);
				return;
			}
			if (k == 0)
				pos += (size_t)ksnprintf(buf + pos, size - pos,
							 "%snode %u:",
							 pos ? "; " : "", n);
			pos += (size_t)ksnprintf(buf + pos, size - pos,
						 " [%#llx, %#llx)%s%s",
						 (unsigned long long)r->start,
						 (unsigned long long)r->end,
						 r->hotplug ? " hotplug" : "",
						 r->nonvolatile ? " nv" : "");
		}
	}
}

static void print_srat(const struct srat *s)
{
	char ranges[320];

	describe_ranges(s, ranges, sizeof(ranges));
	printk("acpi: SRAT: %u node%s, %u processor%s, %u memory range%s "
	       "(%s)%s%s%s%s\n", s->nnodes, s->nnodes == 1 ? "" : "s",
	       s->ncpus, s->ncpus == 1 ? "" : "s", s->nmem,
	       s->nmem == 1 ? "" : "s", ranges,
	       s->bad ? "; a malformed entry ended the table" : "",
	       s->disabled ? "; disabled entries skipped" : "",
	       s->dropped ? "; entries beyond hugezero's limits dropped" : "",
	       s->empty ? "; empty memory entries skipped" : "");
}

/* Which node each processor and memory range is on (Linux's acpi_numa_init). */
static void parse_srat(void)
{
	const struct sdt_header *h = acpi_find("SRAT");
	struct srat *s = &acpi.srat;
	struct srat_cpu *cpu;
	u32 n;

	if (!h) {
		printk("acpi: SRAT: none (one NUMA node)\n");
		return;
	}
	n = srat_processor_entries(h, h->length);
	cpu = table_room("the SRAT's processors", n, sizeof(*cpu));
	if (!srat_parse(h, h->length, s, cpu, n)) {
		printk("acpi: SRAT: %u bytes, unreadable (one NUMA node)\n",
		       h->length);
		return;
	}
	print_srat(s);
	/* As Linux's -ENOENT from acpi_numa_init(): no memory, no nodes. */
	if (s->nmem == 0) {
		printk("acpi: SRAT: no enabled memory range: not used (one "
		       "NUMA node)\n");
		return;
	}
	acpi.has_srat = true;
}

/* "10 20 / 20 10": the distances between nodes, as many rows as fit. */
static void describe_distances(const struct srat *s, char *buf, size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (u32 a = 0; a < s->nnodes; a++) {
		for (u32 b = 0; b < s->nnodes; b++) {
			if (pos + 16 > size) {
				ksnprintf(buf + pos, size - pos, " ...");
				return;
			}
			pos += (size_t)ksnprintf(buf + pos, size - pos, "%s%u",
						 b ? " " : a ? " / " : "",
						 srat_distance(s, a, b));
		}
	}
}

static void parse_slit(void)
{
	const struct sdt_header *h = acpi_find("SLIT");
	struct srat *s = &acpi.srat;
	char dist[320];

	if (!acpi.has_srat) {
		if (h)
			printk("acpi: SLIT: not used (one NUMA node)\n");
		return;
	}
	if (!h) {
		printk("acpi: SLIT: none: distances 10 local, 20 remote\n");
		return;
	}
	if (!srat_apply_slit(s, h, h->length)) {
		printk("acpi: SLIT: not used (%s): distances 10 local, 20 "
		       "remote\n", s->slit_reason);
		return;
	}
	describe_distances(s, dist, sizeof(dist));
	printk("acpi: SLIT: %llu localit%s, distances %s\n",
	       (unsigned long long)s->localities,
	       s->localities == 1 ? "y" : "ies", dist);
}

/*
 * The firmware's console UART; console_auto() judges whether to use it,
 * told why not (acpi.spcr_absent) when there is none to read.
 */
static void parse_spcr(void)
{
	const struct sdt_header *h = acpi_find("SPCR");
	const struct spcr *s = &acpi.spcr;
	char type[24], why[96], extra[64] = "";

	if (!h) {
		if (acpi_bad("SPCR"))
			strlcpy(acpi.spcr_absent, "the ACPI SPCR table has a bad "
				"checksum", sizeof(acpi.spcr_absent));
		return;
	}
	if (!spcr_parse(h, h->length, &acpi.spcr, why, sizeof(why))) {
		printk("acpi: SPCR unreadable: %s\n", why);
		ksnprintf(acpi.spcr_absent, sizeof(acpi.spcr_absent), "the ACPI "
			  "SPCR table is unreadable (%s)", why);
		return;
	}
	acpi.has_spcr = true;
	if (s->uart_clock || s->precise_baud)
		ksnprintf(extra, sizeof(extra), ", UART clock %u Hz, precise "
			  "baud %u", s->uart_clock, s->precise_baud);
	printk("acpi: SPCR rev %u: interface %s, %s %#llx (%u-bit, access "
	       "size %u), baud code %u (%u), parity %u, stop bits %u%s\n",
	       s->revision, spcr_interface_name(s, type, sizeof(type)),
	       s->space == 1 ? "I/O port" : s->space == 0 ? "MMIO" : "space ?",
	       (unsigned long long)s->address, s->bit_width, s->access_size,
	       s->baud_code, s->baud, s->parity, s->stop_bits, extra);
}

void acpi_init(void)
{
	const u8 *rsdp = boot_info.rsdp_len ? boot_info.rsdp : NULL;

	strlcpy(acpi.spcr_absent, "there is no ACPI SPCR table",
		sizeof(acpi.spcr_absent));

	if (!rsdp)
		rsdp = find_rsdp_in_bios();
	if (!rsdp || memcmp(rsdp, "RSD PTR ", 8) != 0 || !checksum_ok(rsdp, 20)) {
		printk("hugezero: acpi: no valid RSDP; no HPET, PM timer or "
		       "ACPI reset\n");
		return;
	}
	acpi.present = true;
	acpi.revision = rsdp[15];
	memcpy(acpi.oem, rsdp + 9, 6);
	acpi.oem[6] = '\0';
	if (acpi.revision >= 2 && *(const u64 *)(rsdp + 24))
		walk_root(*(const u64 *)(rsdp + 24), 8);
	else
		walk_root(*(const u32 *)(rsdp + 16), 4);
	parse_fadt();
	parse_hpet();
	parse_madt();
	parse_srat();
	parse_slit();
	parse_spcr();
}
