/*
 * bcryptprimitives.dll for Wine 8 (Debian 12), which lacks it: Go's
 * Windows runtime loads it from system32 at start-up for ProcessPrng, its
 * source of random bytes, present in Windows 10 and later (the oldest
 * Windows Go supports). This stand-in gives ProcessPrng from Wine's
 * RtlGenRandom (advapi32's SystemFunction036). The Wine test builds it
 * with MinGW-w64 into its prefix's system32 when Wine has no such DLL;
 * it is never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
