#include "solver/CollisionDiagnostics.H"

#include <sstream>

namespace superellipsoid
{

std::string CollisionDiagnostics::summary() const
{
    std::ostringstream os;
    os << "substeps " << substeps
       << ", pair/wall contacts " << pairContacts << "/" << wallContacts
       << ", pair/wall impulses " << pairCollisions << "/" << wallCollisions
       << ", sweeps max " << maxSweeps << " (cap hits " << sweepCapHits
       << ", stagnated " << collisionStagnations << ")"
       << ", resting sweeps mean " << meanRestingSweeps() << " max " << maxRestingSweeps
       << " (cap hits " << restingCapHits << ", energy stops " << restingEnergyStops
       << ", impulses " << restingImpulses << ", residual " << restingResidual
       << ", energy residual " << restingEnergyResidual << ")"
       << ", local-minimum restarts " << localMinimumRestarts
       << ", Newton mean " << detection.meanIterations() << " max " << detection.maxIterations
       << ", failures " << detection.failures + wallDetection.failures
       << ", fallbacks " << detection.fallbacks + wallDetection.fallbacks
       << ", max overlap/c " << maxOverlapRatio
       << ", KE trans " << translationalEnergy << " rot " << rotationalEnergy;
    return os.str();
}


std::string CollisionDiagnostics::csvHeader()
{
    return "substeps,pairContacts,wallContacts,pairCollisions,wallCollisions,maxSweeps,"
           "sweepCapHits,maxRestingSweeps,restingCapHits,restingImpulses,candidatePairs,obbRejections,localMinimumRestarts,detections,newtonMean,newtonMax,"
           "failures,fallbacks,wallDetections,wallFailures,maxOverlapRatio,kineticEnergyTranslational,kineticEnergyRotational,"
           "restingSweeps,restingSubsteps,restingResidual,restingSweepsMean,restingEnergyStops,"
           "restingEnergyResidual,collisionStagnations";
}


std::string CollisionDiagnostics::csvRow() const
{
    std::ostringstream os;
    os.precision(10);
    os << substeps << ',' << pairContacts << ',' << wallContacts << ',' << pairCollisions << ','
       << wallCollisions << ',' << maxSweeps << ',' << sweepCapHits << ',' << maxRestingSweeps << ','
       << restingCapHits << ',' << restingImpulses << ',' << candidatePairs << ','
       << obbRejections << ',' << localMinimumRestarts << ',' << detection.detections << ',' << detection.meanIterations() << ','
       << detection.maxIterations << ',' << detection.failures << ',' << detection.fallbacks << ','
       << wallDetection.detections << ',' << wallDetection.failures << ','
       << maxOverlapRatio << ',' << translationalEnergy << ',' << rotationalEnergy << ','
       << restingSweeps << ',' << restingSubsteps << ',' << restingResidual << ','
       << meanRestingSweeps() << ',' << restingEnergyStops << ',' << restingEnergyResidual << ','
       << collisionStagnations;
    return os.str();
}

} // namespace superellipsoid
