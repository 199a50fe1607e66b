package export

import "hostplan/internal/model"

// DriverLabel is the plain-words label of driver d, as the Drivers and
// Costs sheets write it ("price per GPU-hour"): for the faces that name a
// driver outside the workbook (hostplan reprice and its window).
func DriverLabel(d model.Driver) string { return driverLabel(d) }

// DriverUnit is d's unit with "¤" written as currency ("USD/GPU-hour").
func DriverUnit(d model.Driver, currency string) string { return driverUnit(d, currency) }
