/**
 * Test helpers shared by every module's tests (never shipped): the test data ({@link org.chunkcdm.testkit.Fixtures}),
 * the one IOSP contract test ({@link org.chunkcdm.testkit.IospContract}) and CDM comparisons.
 *
 * <p>May import: netcdf-java, JUnit, Jackson; nothing of chunkcdm's product modules.
 */
package org.chunkcdm.testkit;
